import type { OpenAPISpec } from '../../api/openapi.ts';

/** What a specification's processing state says. */
export const STATES: Record<OpenAPISpec['processingState'], string> = {
  pending: 'Waiting to be processed',
  progress: 'Being processed',
  complete: 'Processed',
};

/** The state in a sentence: a failed last processing says so (its latest good version is kept). */
export const stateOf = (s: OpenAPISpec) =>
  s.processingState === 'complete' && s.lastProcessErrorCode
    ? `The last processing failed (${s.lastProcessErrorCode})`
    : STATES[s.processingState];

/** Still being worked on by the instance: the screen asks again until it is done. */
export const waiting = (specs: OpenAPISpec[]) => specs.some((s) => s.processingState !== 'complete');

/** How often (ms) a screen asks again while a specification waits to be processed. */
export const POLL_MS = 1500;

/** A slug from a title or a file name: lowercase words joined by dashes, as the API wants it. */
export const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/\.(ya?ml|json)$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
