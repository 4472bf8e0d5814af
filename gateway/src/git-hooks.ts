import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ops } from '@quire/contracts';
import { toPublicError, type ServiceClients } from '@quire/kit';
import { sendError } from './errors.ts';
import type { RateLimits } from './rate-limit.ts';

/** The largest webhook body (the content service checks it again): a push event with many commits fits. */
const MAX_HOOK_BYTES = 256 * 1024;

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v.slice(0, 256) : undefined;
};

/** A delivery's id, as GitHub, Gitea/Forgejo (and Gogs) and GitLab name it: a replay carries the same one. */
const deliveryIdOf = (req: FastifyRequest) =>
  header(req, 'x-github-delivery') ??
  header(req, 'x-gitea-delivery') ??
  header(req, 'x-gogs-delivery') ??
  header(req, 'x-gitlab-event-uuid') ??
  header(req, 'idempotency-key') ??
  undefined;

/**
 * `POST /v1/git/hooks/{connectionId}`: a Git server's push webhook for a space's continuous Git Sync. Public (the
 * Git server has no session): the body is read as raw bytes (any media type, at most 256 KiB, else 413) and handed
 * with the signature headers (`X-Hub-Signature-256`, `X-Gitea-Signature`, `X-Gitlab-Token`) and the delivery id to the
 * content service, which verifies them against the connection's secret (401 when they do not match) and queues a sync (202).
 */
export function registerGitHooks(app: FastifyInstance, deps: { clients: ServiceClients; limits: RateLimits }): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_HOOK_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/v1/git/hooks/:connectionId', async (req: FastifyRequest, reply: FastifyReply) => {
      const { connectionId } = req.params as { connectionId: string };
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      // An address past its failed-authentication budget has no more signatures checked (429).
      if (!(await deps.limits.mayLookUp(req)) && !(await deps.limits.authFailed(req, reply))) return reply;
      try {
        const res = await deps.clients.asService(
          ops.importGitHook,
          {
            connectionId: connectionId.slice(0, 64),
            body: body.toString('base64'),
            hubSignature: header(req, 'x-hub-signature-256'),
            giteaSignature: header(req, 'x-gitea-signature'),
            gitlabToken: header(req, 'x-gitlab-token'),
            deliveryId: deliveryIdOf(req),
          },
          req.id,
        );
        return reply.code(202).send(res);
      } catch (err) {
        const pub = toPublicError(err);
        if (pub.reason === 'unauthenticated' && !(await deps.limits.authFailed(req, reply))) return reply;
        if (pub.unexpected) req.log.error({ err }, 'git webhook failed');
        return sendError(reply, pub);
      }
    });
  });
}
