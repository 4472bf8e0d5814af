import { Events } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import {
  gitSyncRepository,
  type GitDirection,
  type GitOperationParams,
  type GitOperationProgress,
  type GitOutcome,
  type GitPageBlob,
  type GitOperationRow,
  type GitSyncRow,
} from '../modules/git/git-sync.repository.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';

export interface GitOperationQueuerProps {
  spaceId: string;
  direction: GitDirection;
  /** Without credentials. */
  url: string;
  ref: string;
  /** Sealed with the SecretBox (aad `git:<spaceId>`), or null. */
  sealedCredentials: string | null;
  params: GitOperationParams;
  userId: string;
  now?: Date;
}

/** Queues an import or export for the `content-git-sync` job. Returns its id. */
export async function gitOperationQueuer(em: EntityManager, props: GitOperationQueuerProps): Promise<string> {
  const id = newId();
  await gitSyncRepository.insertOperation(em, {
    id,
    space_id: props.spaceId,
    direction: props.direction,
    url: props.url,
    ref: props.ref,
    credentials: props.sealedCredentials,
    params: props.params,
    requested_by: props.userId,
    created_at: props.now ?? new Date(),
  });
  return id;
}

export interface GitOperationFinisherProps {
  operationId: string;
  outcome: GitOutcome;
  /** On success (and not standalone): the space's Git Sync as it now stands. */
  sync?: Omit<GitSyncRow, 'created_at' | 'updated_at'> | undefined;
  now?: Date;
}

/** Records how an operation ended (its sealed credentials dropped) and, when it synced, the space's Git Sync. */
export async function gitOperationFinisher(em: EntityManager, props: GitOperationFinisherProps): Promise<void> {
  const now = props.now ?? new Date();
  await gitSyncRepository.finish(em, props.operationId, props.outcome, now);
  if (props.sync) await gitSyncRepository.upsertSync(em, props.sync, now);
}

/** Records what a running operation has done so far. */
/**
 * Claims the operation waiting longest whose space has none running, with a lease until `leaseUntil` (one at a time
 * per space, in order); a claim past its attempts fails it. Null when none waits.
 */
export function gitOperationClaimer(
  em: EntityManager,
  { now = new Date(), leaseUntil }: { now?: Date; leaseUntil: Date },
): Promise<GitOperationRow | null> {
  return gitSyncRepository.claimNext(em, now, leaseUntil);
}

export async function gitProgressRecorder(
  em: EntityManager,
  props: { operationId: string; progress: GitOperationProgress },
): Promise<void> {
  await gitSyncRepository.setProgress(em, props.operationId, props.progress);
}

/** Keeps a running operation's claim while its process works on it (a stopped process lets it lapse). */
export async function gitOperationLeaseRenewer(
  em: EntityManager,
  props: { operationId: string; until: Date },
): Promise<void> {
  await gitSyncRepository.renewLease(em, props.operationId, props.until);
}

/** Records GitBook's `git: {oid, path}` of the pages of a revision Git wrote or that was exported as is. */
export async function gitPageBlobsRecorder(
  em: EntityManager,
  props: { spaceId: string; revisionId: string; blobs: ReadonlyMap<string, GitPageBlob> },
): Promise<void> {
  await gitSyncRepository.setPageBlobs(em, props.spaceId, props.revisionId, props.blobs);
}

/**
 * Announces the redirects an import read (`space.git-redirects-updated`, for the sites publishing the space): when
 * there are some, or when the space had some before (they are all gone now). Nothing otherwise.
 */
export function gitRedirectsRecorder(
  em: EntityManager,
  props: {
    space: Pick<ISpace, 'id' | 'organizationId'>;
    commit: string;
    redirects: Readonly<Record<string, string>>;
    previous: Readonly<Record<string, string>>;
  },
): void {
  const entries = Object.entries(props.redirects);
  if (!entries.length && !Object.keys(props.previous).length) return;
  recordEvent(em, Events.spaceGitRedirectsUpdated, {
    space: props.space.id,
    organization: props.space.organizationId,
    commit: props.commit,
    redirects: entries.map(([source, page]) => ({ source, page })),
  });
}
