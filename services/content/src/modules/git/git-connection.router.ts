import { ops } from '@quire/contracts';
import { DomainError, newId, notFound, secretBoxOf } from '@quire/kit';
import { assertEditable } from '../../commands/edit-state.ts';
import { gitConnectionDeleter, gitConnectionWriter, gitSyncQueuer } from '../../commands/git-connection-writer.ts';
import { implement } from '../../trpc.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { requestRemote } from './git-http.ts';
import { MAX_HOOK_BODY_BYTES, verifyHookSignature } from './git-hook.ts';
import { gitConnectionRepository } from './git-connection.repository.ts';
import { presentGitConnection } from './git.presenter.ts';

const hookAad = (connectionId: string) => `git-hook:${connectionId}`;

/**
 * Continuous Git Sync (Quire-specific `…/git/connection`): a space connected to a repository+ref is kept in step
 * by the `content-git-sync` job. Connecting imports and merges into main, so it takes the role that merges
 * (`review`, as an import); reading it, `read` (as getSpaceGitInfo).
 */
export const gitConnectionProcedures = {
  getSpaceGitConnection: implement(ops.getSpaceGitConnection, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'gitInfo');
    const connection = await gitConnectionRepository.findBySpace(ctx.em, space.id);
    if (!connection) throw notFound('Git connection');
    return presentGitConnection(ctx.urls, connection);
  }),

  updateSpaceGitConnection: implement(ops.updateSpaceGitConnection, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'gitImport');
    assertEditable(space);
    const { url, credentials, projectDirectory: directory } = requestRemote(input);
    const current = await gitConnectionRepository.findBySpace(ctx.em, space.id);
    const id = current?.id ?? newId();
    const needsBox = credentials !== undefined || input.webhookSecret !== undefined;
    const box = needsBox ? secretBoxOf(ctx.config) : null;
    const saved = await gitConnectionWriter(ctx.em, {
      id,
      spaceId: space.id,
      current,
      url,
      ref: input.ref,
      projectDirectory: directory,
      sealedCredentials: credentials ? box!.seal(credentials, `git:${space.id}`) : undefined,
      sealedWebhookSecret: input.webhookSecret ? box!.seal(input.webhookSecret, hookAad(id)) : undefined,
      pollInterval: input.pollInterval,
      initialSync: input.initialSync,
      userId: ctx.actor.userId,
    });
    return presentGitConnection(ctx.urls, saved);
  }),

  deleteSpaceGitConnection: implement(ops.deleteSpaceGitConnection, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'gitImport');
    if (!(await gitConnectionDeleter(ctx.em, { spaceId: space.id }))) throw notFound('Git connection');
  }),

  /** `POST /v1/git/hooks/{connectionId}`: a push webhook, signed with the connection's secret, queues a sync. */
  importGitHook: implement(ops.importGitHook, async ({ input, ctx }) => {
    const connection = await gitConnectionRepository.findById(ctx.em, input.connectionId);
    if (!connection) throw notFound('Git connection');
    const body = Buffer.from(input.body, 'base64');
    if (body.byteLength > MAX_HOOK_BODY_BYTES)
      throw new DomainError('payload_too_large', `A webhook body is at most ${MAX_HOOK_BODY_BYTES} bytes`);
    const refused = new DomainError('unauthenticated', 'The webhook signature does not match the connection secret');
    if (!connection.webhook_secret) throw refused;
    const secret = secretBoxOf(ctx.config).open(connection.webhook_secret, hookAad(connection.id));
    if (!verifyHookSignature(secret, body, input)) throw refused;
    // A push to another branch (the payload's `ref`, when it names one) syncs nothing.
    let ref: unknown;
    try {
      ref = (JSON.parse(body.toString('utf8')) as { ref?: unknown }).ref;
    } catch {
      ref = undefined;
    }
    if (typeof ref === 'string' && ref.startsWith('refs/') && ref !== connection.ref) return { queued: false };
    return { queued: (await gitSyncQueuer(ctx.em, { connection, trigger: 'hook' })) !== null };
  }),
};
