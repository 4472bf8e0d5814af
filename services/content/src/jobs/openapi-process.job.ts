import {
  DomainError,
  runLeasedClaims,
  type EntityManager,
  type JobDefinition,
  type Logger,
  type ServiceDeps,
} from '@quire/kit';
import {
  openAPIResultRecorder,
  openAPISpecClaimer,
  openAPISpecLeaseRenewer,
  type OpenAPIOutcome,
} from '../commands/openapi-spec-processing.ts';
import type { ContentConfig } from '../env.ts';
import type { OpenAPIFetchLimits } from '../modules/openapi/openapi-document.ts';
import { parseSettingsOf, textParser, type TextParser } from '../modules/parsing/text-parser.ts';
import type { OpenAPIClaim } from '../modules/openapi/openapi-spec.repository.ts';

export const OPENAPI_JOB = 'content-openapi-process';

/** How long a claim lasts without renewal: a process stopped mid-job leaves its specification to be claimed again after this. */
export const OPENAPI_LEASE_MS = 30_000;
/** Specifications processed by one run at most (the next run goes on). */
const PER_RUN = 20;

export interface OpenAPIProcessorDeps {
  em: EntityManager;
  log: Logger;
  blobs: ServiceDeps['blobs'];
  limits: OpenAPIFetchLimits;
  leaseMs?: number;
  /** Where a specification is fetched, parsed and validated: a parsing thread, bounded in time and memory. */
  parser?: TextParser;
}

/** How long reading one specification may take on its thread (its fetches included), and what a user reads past it. */
export const OPENAPI_READ_MS = 30_000;

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
  const done = await runLeasedClaims({
    name: OPENAPI_JOB,
    log: deps.log,
    leaseMs,
    max,
    claim: () => deps.em.fork().transactional((tx) => openAPISpecClaimer(tx, { leaseMs })),
    renew: (claim) => deps.em.fork().transactional((tx) => openAPISpecLeaseRenewer(tx, { claim, leaseMs })),
    describe: (claim) => ({ spec: claim.id }),
    work: async (claim) => {
      const outcome = await processClaim(deps, claim);
      await deps.em.fork().transactional((tx) => openAPIResultRecorder(tx, { claim, outcome }));
    },
  });
  return done.map((claim) => claim.id);
}

async function processClaim(deps: OpenAPIProcessorDeps, claim: OpenAPIClaim): Promise<OpenAPIOutcome> {
  const source = claim.sourceUrl !== null ? { url: claim.sourceUrl } : { text: claim.sourceText ?? '' };
  let read;
  try {
    read = await (deps.parser ?? textParser())
      .session(OPENAPI_READ_MS)
      .run({ kind: 'openapi', source, limits: deps.limits }, 'specification');
  } catch (err) {
    // Past the thread's time or memory: the specification is the user's to fix, like a parse error.
    if (err instanceof DomainError && err.reason !== 'internal')
      return {
        ok: false,
        code: 'PARSE_ERROR',
        message: err.message.replace(/^(Invalid request|Too large): specification: /, 'The specification is '),
      };
    throw err;
  }
  if (!read.ok) return read;
  const { entry } = read.processed;
  const { key } = await deps.blobs.put(
    Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength),
    entry.contentType,
  );
  return {
    ok: true,
    hash: read.processed.hash,
    blobKey: key,
    filename: entry.filename,
    contentType: entry.contentType,
    filesystem: read.processed.filesystem,
  };
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
      const done = await processWaitingOpenAPISpecs({
        em: deps.orm.em.fork(),
        log: deps.log,
        blobs: deps.blobs,
        limits,
        parser: textParser(parseSettingsOf(deps.config)),
      });
      if (done.length) deps.log.info({ processed: done.length }, 'processed OpenAPI specifications');
    },
  };
}
