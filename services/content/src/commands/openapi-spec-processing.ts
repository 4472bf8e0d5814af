import { Events, type OpenAPISpecProcessingErrorCode } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import {
  OpenAPISpecVersion,
  type IOpenAPISpec,
  type OpenAPIFilesystem,
} from '../modules/openapi/openapi-spec.entity.ts';
import { openAPISpecRepository, type OpenAPIClaim } from '../modules/openapi/openapi-spec.repository.ts';

/** Claims the next specification waiting to be processed (`progress` with a lease), or null when none waits. */
export function openAPISpecClaimer(
  em: EntityManager,
  { now = new Date(), leaseMs }: { now?: Date; leaseMs: number },
): Promise<OpenAPIClaim | null> {
  return openAPISpecRepository.claimNext(em, now, new Date(now.getTime() + leaseMs));
}

/** Keeps a running claim alive; false when the specification changed or was deleted meanwhile. */
export function openAPISpecLeaseRenewer(
  em: EntityManager,
  { claim, leaseMs, now = new Date() }: { claim: OpenAPIClaim; leaseMs: number; now?: Date },
): Promise<boolean> {
  return openAPISpecRepository.renewLease(em, claim, new Date(now.getTime() + leaseMs));
}

export type OpenAPIOutcome =
  | { ok: true; hash: string; blobKey: string; filename: string; contentType: string; filesystem: OpenAPIFilesystem }
  | { ok: false; code: OpenAPISpecProcessingErrorCode; message: string };

export interface OpenAPIResultRecorderProps {
  claim: OpenAPIClaim;
  outcome: OpenAPIOutcome;
  now?: Date;
}

/**
 * Records the end of a processing: a new version (unless the document is the latest version's, same hash),
 * or the error, keeping the last good version. The specification becomes `complete`, with
 * `openapi-spec.processed` or `openapi-spec.failed`. A result for a source that changed meanwhile (or a
 * deleted specification) is dropped: null.
 */
export async function openAPIResultRecorder(
  em: EntityManager,
  { claim, outcome, now = new Date() }: OpenAPIResultRecorderProps,
): Promise<IOpenAPISpec | null> {
  const spec = await openAPISpecRepository.lockIfCurrent(em, claim);
  if (!spec) return null;
  const base = { spec: spec.id, organization: spec.organizationId, slug: spec.slug };
  if (!outcome.ok) {
    Object.assign(spec, {
      processingState: 'complete',
      leaseUntil: null,
      lastProcessedAt: now,
      lastProcessErrorCode: outcome.code,
      lastProcessErrorMessage: outcome.message,
    });
    em.persist(spec);
    recordEvent(em, Events.openapiSpecFailed, { ...base, code: outcome.code, message: outcome.message });
    return spec;
  }
  const latest = spec.lastVersionId ? await openAPISpecRepository.findVersion(em, spec.id, spec.lastVersionId) : null;
  let versionId = latest?.id;
  const created = !latest || latest.hash !== outcome.hash;
  if (created) {
    versionId = newId();
    em.create(OpenAPISpecVersion, {
      id: versionId,
      specId: spec.id,
      hash: outcome.hash,
      blobKey: outcome.blobKey,
      filename: outcome.filename,
      contentType: outcome.contentType,
      sourceUrl: claim.sourceUrl,
      filesystem: outcome.filesystem,
      createdAt: now,
    });
  }
  Object.assign(spec, {
    processingState: 'complete',
    leaseUntil: null,
    lastVersionId: versionId,
    lastProcessedAt: now,
    lastProcessErrorCode: null,
    lastProcessErrorMessage: null,
  });
  em.persist(spec);
  recordEvent(em, Events.openapiSpecProcessed, { ...base, version: versionId!, created });
  return spec;
}
