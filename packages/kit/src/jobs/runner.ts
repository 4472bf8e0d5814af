import type { Logger } from '../logger.ts';
import type { JobDefinition, JobRunner } from './job.ts';
import { NatsJobRunner } from './nats-runner.ts';
import { TimerJobRunner } from './timer-runner.ts';

export interface JobRunnerConfig {
  NATS_URL?: string | undefined;
  NATS_STREAM: string;
  NATS_SUBJECT_PREFIX: string;
}

/**
 * The runner of a service's jobs: a JetStream work queue when NATS is configured (stream `<NATS_STREAM>_JOBS`
 * on `<NATS_SUBJECT_PREFIX>_jobs.>`, beside the event stream), in-process timers otherwise (standalone).
 */
export async function createJobRunner(
  config: JobRunnerConfig,
  log: Logger,
  jobs: readonly JobDefinition<any>[],
  name?: string,
): Promise<JobRunner> {
  if (!config.NATS_URL) return new TimerJobRunner(jobs, log);
  return NatsJobRunner.connect(
    {
      url: config.NATS_URL,
      stream: `${config.NATS_STREAM}_JOBS`,
      prefix: `${config.NATS_SUBJECT_PREFIX}_jobs`,
      log,
      ...(name ? { name: `${name}-jobs` } : {}),
    },
    jobs,
  );
}
