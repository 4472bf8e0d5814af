import type { EntityManager, JobDefinition, ServiceDeps } from '@quire/kit';
import { openAPIResultRecorder, openAPISpecClaimer, openAPISpecLeaseRenewer, type OpenAPIOutcome } from '../commands/openapi-spec-processing.ts';
import type { ContentConfig } from '../env.ts';
import { OpenAPIProcessingError, processOpenAPISource, type OpenAPIFetchLimits } from '../modules/openapi/openapi-document.ts';
import type { OpenAPIClaim } from '../modules/openapi/openapi-spec.repository.ts';

export const OPENAPI_JOB = 'content-openapi-process';

/** How long a claim lasts without renewal: a process stopped mid-job leaves its specification to be claimed again after this. */
export const OPENAPI_LEASE_MS = 30_000;
/** Specifications processed by one run at most (the next run goes on). */
const PER_RUN = 20;

export interface OpenAPIProcessorDeps {
  em: EntityManager;
  blobs: ServiceDeps['blobs'];
  limits: OpenAPIFetchLimits;
  leaseMs?: number;
}

/**
 * Processes the specifications waiting (`pending`, or `progress` whose lease lapsed because the process
 * working on it stopped), one claim after another: fetch, parse and validate outside any transaction,
 * the entry document to the blob store, then the result in one transaction with its event. A failure of
 * the user's (fetch, parse) is a result; any other error (database, blob store) fails the run, which the
 * job runner retries with backoff, and leaves the claim to lapse: the specification is tried again once
 * its lease ends, after the others waiting. Returns the ids of the specifications processed.
 */
export async function processWaitingOpenAPISpecs(deps: OpenAPIProcessorDeps, max = PER_RUN): Promise<string[]> {
  const leaseMs = deps.leaseMs ?? OPENAPI_LEASE_MS;
  const done: string[] = [];
  while (done.length < max) {
    const claim = await deps.em.fork().transactional((tx) => openAPISpecClaimer(tx, { leaseMs }));
    if (!claim) break;
    const renew = setInterval(() => {
      void deps.em
        .fork()
        .transactional((tx) => openAPISpecLeaseRenewer(tx, { claim, leaseMs }))
        .catch(() => undefined);
    }, Math.max(50, Math.floor(leaseMs / 3)));
    try {
      const outcome = await processClaim(deps, claim);
      await deps.em.fork().transactional((tx) => openAPIResultRecorder(tx, { claim, outcome }));
      done.push(claim.id);
    } finally {
      clearInterval(renew);
    }
  }
  return done;
}

async function processClaim(deps: OpenAPIProcessorDeps, claim: OpenAPIClaim): Promise<OpenAPIOutcome> {
  const source = claim.sourceUrl !== null ? { url: claim.sourceUrl } : { text: claim.sourceText ?? '' };
  try {
    const processed = await processOpenAPISource(source, deps.limits);
    const { key } = await deps.blobs.put(processed.entry.bytes, processed.entry.contentType);
    return { ok: true, hash: processed.hash, blobKey: key, filename: processed.entry.filename, contentType: processed.entry.contentType, filesystem: processed.filesystem };
  } catch (err) {
    if (err instanceof OpenAPIProcessingError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}

/** Every `QUIRE_OPENAPI_SCAN_EVERY_MS` (and at start): processes the OpenAPI specifications waiting. */
export function openAPIProcessJob(deps: ServiceDeps<ContentConfig>): JobDefinition {
  const limits: OpenAPIFetchLimits = {
    fetchTimeoutMs: deps.config.QUIRE_OPENAPI_FETCH_TIMEOUT_MS,
    maxBytes: deps.config.QUIRE_OPENAPI_MAX_BYTES,
    maxFiles: deps.config.QUIRE_OPENAPI_MAX_FILES,
    allowPrivate: deps.config.QUIRE_ALLOW_PRIVATE_FETCH,
    allowPublic: deps.config.QUIRE_OUTBOUND_FETCH,
  };
  return {
    name: OPENAPI_JOB,
    everyMs: deps.config.QUIRE_OPENAPI_SCAN_EVERY_MS,
    maxAttempts: 5,
    // One run may fetch many documents; the runner keeps a running one alive.
    timeoutMs: 60_000,
    run: async () => {
      const done = await processWaitingOpenAPISpecs({ em: deps.orm.em.fork(), blobs: deps.blobs, limits });
      if (done.length) deps.log.info({ processed: done.length }, 'processed OpenAPI specifications');
    },
  };
}
