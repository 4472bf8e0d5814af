import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toPublicError, type PublicError } from '@quire/kit';

export function sendError(reply: FastifyReply, err: PublicError, headers: Record<string, string> = {}): FastifyReply {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(err.status).send({ error: { code: err.status, message: err.message } });
}

/** Fastify's own failures (bad JSON, media type, size, routing) in the `{error:{code,message}}` shape. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler((req: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, { status: 404, reason: 'not_found', message: `No route ${req.method} ${req.url.split('?')[0]}`, unexpected: false }),
  );
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    const status = err.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError'
          ? 'Malformed JSON in the request body'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported Content-Type: send application/json'
            : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? 'Request body too large'
              : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
                ? 'Empty JSON body: send a JSON object or no Content-Type'
                : err.message;
      return sendError(reply, { status, reason: 'invalid_input', message, unexpected: false });
    }
    const pub = toPublicError(err);
    if (pub.unexpected) req.log.error({ err }, 'request failed');
    return sendError(reply, pub);
  });
}
