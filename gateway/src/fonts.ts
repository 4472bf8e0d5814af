import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FONT_FILE_MAX_BYTES, ops } from '@quire/contracts';
import { publicError, toPublicError, type ServiceClients } from '@quire/kit';
import { sendError } from './errors.ts';

const FONT_FILE = /^([0-9a-f]{64})\.(woff2|woff|ttf|otf)$/;

/**
 * Custom fonts' files (issue 40), two routes the sites service answers:
 * - `PUT /v1/storage/uploads/{token}`: the bytes of a signed upload URL (`generateStorageUploadURL`), taken raw (any
 *   media type, at most 2 MiB, else 413) without the API token: the URL's signature is the permission.
 * - `GET /_quire/fonts/files/{sha256}.{ext}`: a custom font's file, on every host (a custom hostname's pages load it
 *   from their own origin), content-addressed, so cached for a year as immutable.
 */
export function registerFontRoutes(app: FastifyInstance, deps: { clients: ServiceClients }): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FONT_FILE_MAX_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    scope.put('/v1/storage/uploads/:token', async (req: FastifyRequest, reply: FastifyReply) => {
      const { token } = req.params as { token: string };
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!body.length)
        return sendError(reply, publicError('invalid_input', 'Invalid request: body: the file is empty'));
      try {
        const res = await deps.clients.asService(
          ops.uploadStorageFile,
          { token: token.slice(0, 2048), body: body.toString('base64') },
          req.id,
        );
        return reply.code(200).send(res);
      } catch (err) {
        const pub = toPublicError(err);
        if (pub.unexpected) req.log.error({ err }, 'storage upload failed');
        return sendError(reply, pub);
      }
    });
  });
  app.get('/_quire/fonts/files/:file', async (req: FastifyRequest<{ Params: { file: string } }>, reply) => {
    const m = FONT_FILE.exec(req.params.file);
    if (!m) return sendError(reply, publicError('not_found', 'No such font file'));
    try {
      const res = await deps.clients.asService(ops.getCustomFontFile, { blobKey: m[1]! }, req.id);
      if (!res.found) return sendError(reply, publicError('not_found', 'No such font file'));
      return reply
        .type(res.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('access-control-allow-origin', '*')
        .send(Buffer.from(res.body, 'base64'));
    } catch (err) {
      const pub = toPublicError(err);
      if (pub.unexpected) req.log.error({ err }, 'font file failed');
      return sendError(reply, pub);
    }
  });
}
