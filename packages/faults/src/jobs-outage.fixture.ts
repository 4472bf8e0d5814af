import type { JobDefinition, JobRun } from '@quire/kit';

/** The job both the killed worker and the surviving one work: a lease (timeoutMs) of 1.5 s. */
export const slowJob = (run: (run: JobRun) => Promise<void>): JobDefinition => ({
  name: 'slow',
  timeoutMs: 1_500,
  run,
});
