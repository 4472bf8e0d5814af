import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DownloadSigner, publicError, toPublicError, type DeferredRead, type ServiceClients } from '@quire/kit';
import { sendError } from './errors.ts';

/** What may not reach a filename: controls, invisible format characters (bidi overrides), line breaks, path separators. */
const UNSAFE_IN_FILENAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\]/gu;

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266, RFC 5987):
 * the fallback has no quote, backslash, percent or non-ASCII character, and neither form can carry a
 * CR/LF or a path.
 */
export function contentDisposition(filename: string): string {
  const name = filename.toWellFormed().replace(UNSAFE_IN_FILENAME, '_').trim() || 'download';
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * `GET /v1/downloads/:token`: the bytes behind a signed, expiring link, without the API token. The link
 * names the owning service and the blob (or a deferred download the service makes after handing out the
 * link, such as a PDF being rendered); the gateway has no database, so it asks that service. A link that
 * does not verify is a 404, an expired one a 410, a blob gone since a 404; a deferred download not made
 * yet is a 503 with `Retry-After` (the service waits a little for it first).
 */
export function registerDownloads(app: FastifyInstance, deps: { secret: string; clients: ServiceClients }): void {
  const signer = new DownloadSigner(deps.secret);
  app.get('/v1/downloads/:token', async (req: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const now = Date.now();
    const claims = await signer.verifyDownload(req.params.token, now);
    if (claims === 'invalid') return sendError(reply, publicError('not_found', 'Download link not found'));
    if (claims === 'expired') return sendError(reply, publicError('gone', 'This download link has expired'));
    let read: DeferredRead;
    try {
      if (claims.ref !== undefined) read = await deps.clients.readDeferredAsService(claims.service, claims.ref, req.id);
      else {
        const blob = await deps.clients.readBlobAsService(claims.service, claims.key, req.id);
        read = blob && { blob };
      }
    } catch (err) {
      const pub = toPublicError(err);
      if (pub.status >= 500) req.log.warn({ err, service: claims.service }, 'download failed');
      return sendError(reply, pub);
    }
    if (!read) return sendError(reply, publicError('not_found', 'File not found'));
    if ('pending' in read)
      return sendError(reply, publicError('unavailable', read.pending.message), {
        'retry-after': String(read.pending.retryAfterSeconds),
      });
    const { blob } = read;
    return (
      reply
        .header('content-type', claims.contentType)
        .header('content-length', blob.size)
        .header('content-disposition', contentDisposition(claims.filename))
        .header('cache-control', `private, max-age=${Math.max(0, Math.floor((claims.expiresAt - now) / 1000))}`)
        .header('x-content-type-options', 'nosniff')
        // Whatever the file is (an uploaded `x.html`), opened in a browser it runs nothing and loads nothing.
        .header('content-security-policy', "sandbox; default-src 'none'")
        .send(blob.bytes)
    );
  });
}
