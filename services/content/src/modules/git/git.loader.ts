import { DomainError, newId, notFound, secretBoxOf } from '@quire/kit';
import { assertEditable } from '../../commands/edit-state.ts';
import type { ContentContext } from '../../trpc.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import type { SpaceAction } from '../spaces/space.policy.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { gitConnectionRepository, type GitConnectionRow } from './git-connection.repository.ts';
import { requestRemote } from './git-http.ts';
import { MAX_HOOK_BODY_BYTES, verifyHookSignature, type HookSignatures } from './git-hook.ts';
import { gitSyncRepository, type GitOperationParams } from './git-sync.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor' | 'config'>;

/** The aad a connection's webhook secret is sealed with. */
export const hookAad = (connectionId: string) => `git-hook:${connectionId}`;
/** The aad a space's Git credentials are sealed with (its operations' and its connection's). */
const credentialsAad = (spaceId: string) => `git:${spaceId}`;

/** A secret sealed with the instance's key under `aad`; undefined when there is none. */
const sealed = (ctx: Ctx, secret: string | undefined, aad: string) =>
  secret ? secretBoxOf(ctx.config).seal(secret, aad) : undefined;

/** What an import or export request names: the remote, and GitBook's options. */
export interface GitRequestInput extends GitOperationParams {
  spaceId: string;
  url: string;
  ref: string;
}

/** A request's remote as an operation stores it: its URL (http or https) and its credentials sealed, or null. */
export interface LoadedGitRequest {
  spaceId: string;
  url: string;
  sealedCredentials: string | null;
  params: GitOperationParams;
}

/**
 * The space of an import or export (`action`) and the request's remote: 400 for a remote that is not http(s) or a
 * project directory outside the repository; an import into main (not `standalone`) needs a space that can be
 * edited (409 when it cannot).
 */
export async function loadGitRequest(
  ctx: Ctx,
  input: GitRequestInput,
  action: Extract<SpaceAction, 'gitImport' | 'gitExport'>,
): Promise<LoadedGitRequest> {
  const { space } = await loadSpaceFor(ctx, input.spaceId, action);
  if (action === 'gitImport' && !input.standalone) assertEditable(space);
  const { url, credentials } = requestRemote(input);
  return {
    spaceId: space.id,
    url,
    sealedCredentials: sealed(ctx, credentials, credentialsAad(space.id)) ?? null,
    params: {
      commitMessage: input.commitMessage,
      force: input.force,
      standalone: input.standalone,
      repoTreeURL: input.repoTreeURL,
      repoCommitURL: input.repoCommitURL,
      repoProjectDirectory: input.repoProjectDirectory,
      timestamp: input.timestamp,
    },
  };
}

/** A space's Git Sync as one moment shows it (see `gitSyncRepository.stateOf`): 404 when it has none. */
export async function loadGitSyncState(ctx: Ctx, spaceId: string) {
  const { space } = await loadSpaceFor(ctx, spaceId, 'gitInfo');
  const state = await gitSyncRepository.stateOf(ctx.em, space.id);
  if (!state.sync && !state.op && !state.connection) throw notFound('No Git Sync is set up on this space');
  return state;
}

/** A space's connection, for a caller who may `action` on the space: 404 when it is not connected. */
export async function loadGitConnection(
  ctx: Ctx,
  spaceId: string,
  action: Extract<SpaceAction, 'gitInfo' | 'gitImport'>,
): Promise<{ space: ISpace; connection: GitConnectionRow }> {
  const { space } = await loadSpaceFor(ctx, spaceId, action);
  const connection = await gitConnectionRepository.findBySpace(ctx.em, space.id);
  if (!connection) throw notFound('Git connection');
  return { space, connection };
}

/** What `updateSpaceGitConnection` asks, its remote apart from its credentials. */
export interface GitConnectionInput {
  spaceId: string;
  url: string;
  ref: string;
  repoProjectDirectory?: string | undefined;
  webhookSecret?: string | undefined;
}

/**
 * A connection about to be written: the space (which must be editable: connecting imports into main), the current
 * connection or null, the remote, and the secrets sealed (undefined: keep the current ones).
 */
export async function loadGitConnectionUpdate(ctx: Ctx, input: GitConnectionInput) {
  const { space } = await loadSpaceFor(ctx, input.spaceId, 'gitImport');
  assertEditable(space);
  const { url, credentials, projectDirectory } = requestRemote(input);
  const current = await gitConnectionRepository.findBySpace(ctx.em, space.id);
  const id = current?.id ?? newId();
  return {
    space,
    id,
    current,
    url,
    projectDirectory,
    sealedCredentials: sealed(ctx, credentials, credentialsAad(space.id)),
    sealedWebhookSecret: sealed(ctx, input.webhookSecret, hookAad(id)),
  };
}

/**
 * A push webhook (`POST /v1/git/hooks/{connectionId}`): its connection, when the body is within its limit (413)
 * and signed with the connection's secret (401 otherwise, and for a connection without one), and whether it is a
 * push to the connection's branch (a payload naming another `ref` syncs nothing; one naming none does).
 */
export async function loadSignedGitHook(
  ctx: Ctx,
  input: HookSignatures & { connectionId: string; body: string; deliveryId?: string | undefined },
): Promise<{ connection: GitConnectionRow; ofItsBranch: boolean; deliveryId: string | undefined }> {
  const connection = await gitConnectionRepository.findById(ctx.em, input.connectionId);
  if (!connection) throw notFound('Git connection');
  const body = Buffer.from(input.body, 'base64');
  if (body.byteLength > MAX_HOOK_BODY_BYTES)
    throw new DomainError('payload_too_large', `A webhook body is at most ${MAX_HOOK_BODY_BYTES} bytes`);
  const refused = new DomainError('unauthenticated', 'The webhook signature does not match the connection secret');
  if (!connection.webhook_secret) throw refused;
  const secret = secretBoxOf(ctx.config).open(connection.webhook_secret, hookAad(connection.id));
  if (!verifyHookSignature(secret, body, input)) throw refused;
  const ref = pushedRef(body);
  return { connection, ofItsBranch: ref === undefined || ref === connection.ref, deliveryId: input.deliveryId };
}

/** The `ref` a push payload names (`refs/…`), if it names one. */
function pushedRef(body: Buffer): string | undefined {
  try {
    const ref = (JSON.parse(body.toString('utf8')) as { ref?: unknown }).ref;
    return typeof ref === 'string' && ref.startsWith('refs/') ? ref : undefined;
  } catch {
    return undefined;
  }
}
