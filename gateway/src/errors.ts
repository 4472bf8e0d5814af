import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ERRORS, type ErrorCode } from '@quire/contracts';
import { publicError, RETRY_AFTER_SECONDS, toPublicError, type PublicError } from '@quire/kit';

/** The error shape; a 503 (a service or the database away) always tells the caller when to retry. */
export function sendError(reply: FastifyReply, err: PublicError, headers: Record<string, string> = {}): FastifyReply {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  if (err.status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply
    .code(err.status)
    .type('application/json; charset=utf-8')
    .send({ error: { code: err.status, message: err.message } });
}

/** The error body as raw HTTP, for failures before fastify has a request (the socket is all there is). */
function rawError(reason: ErrorCode, message: string): string {
  const status = ERRORS[reason].status;
  const body = JSON.stringify({ error: { code: status, message } });
  return `HTTP/1.1 ${status} ${message.replace(/[^\x20-\x7e]/g, '')}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** Fastify's own failures (bad JSON, media types, sizes, body parsing, anything else a 4xx) as the error sentence a caller sees. */
function frameworkFailure(err: FastifyError): PublicError {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return publicError('invalid_input', 'Malformed JSON in the request body');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? publicError('unsupported_media_type', 'Unsupported Content-Type: send application/json')
        : publicError('invalid_input', 'Invalid Content-Length');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return publicError('payload_too_large', 'Request body too large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return publicError('invalid_input', 'Empty JSON body: send a JSON object or no Content-Type');
    case 'FST_ERR_BAD_URL':
      return publicError('invalid_input', 'Malformed URL: a percent-escape is not valid UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return publicError('uri_too_long', 'A path parameter is too long');
    default:
      if (err.name === 'SyntaxError') return publicError('invalid_input', 'Malformed JSON in the request body');
      if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
        return {
          status: err.statusCode,
          reason: 'invalid_input',
          message: 'The request could not be read',
          unexpected: false,
        };
      }
      return toPublicError(err);
  }
}

/**
 * The fastify options that keep even the failures fastify and Node answer themselves (malformed percent
 * escapes, over-long parameters, header overflows, malformed requests) in the `{error:{code,message}}` shape.
 */
export function httpErrorOptions(): Pick<
  FastifyServerOptions,
  'frameworkErrors' | 'clientErrorHandler' | 'routerOptions'
> {
  return {
    // Long enough that an over-long id reaches validation (400 naming the field); longer still is a 414.
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: (err, _req, reply) => sendError(reply, frameworkFailure(err)),
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) {
        socket.write(
          err.code === 'HPE_HEADER_OVERFLOW'
            ? rawError('header_too_large', 'Request headers (or URL) too large')
            : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
              ? rawError('invalid_input', 'Request timed out')
              : rawError('invalid_input', 'Malformed HTTP request'),
        );
      }
      socket.destroy(err);
    },
  };
}

/** Every failure of a route (fastify's included), and unknown routes, in the `{error:{code,message}}` shape. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler((req: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, publicError('not_found', `No route ${req.method} ${req.url.split('?')[0]}`)),
  );
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const pub = frameworkFailure(err);
    if (pub.unexpected) req.log.error({ err }, 'request failed');
    return sendError(reply, pub);
  });
}
