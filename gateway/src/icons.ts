import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { iconFile, iconName } from '@quire/sites';
import { sendError } from './errors.ts';

const notFound = { status: 404, reason: 'not_found', message: 'No such icon', unexpected: false } as const;

/**
 * `GET /_quire/icons/{name}.svg`: one icon of Font Awesome Free, for the published sites and the app (GitBook's page
 * and inline icons name them). Only a name of the package's `svgs/` is read (`iconFile` checks it against the files
 * listed there, so no path leaves that folder); each is cached a year, as a name's icon does not change within a
 * release of the package. Any other name is a 404, which the pages never ask for (they draw no icon for it).
 */
export function registerIcons(app: FastifyInstance): void {
  const loaded = new Map<string, Promise<Buffer>>();
  app.get<{ Params: { file: string } }>('/_quire/icons/:file', async (req, reply) => {
    // one URL per icon: the name as `iconName` spells it (`BOOK-open.svg`, `fa-book-open.svg` are no icon's)
    const name = /^(.+)\.svg$/.exec(req.params.file)?.[1];
    const file = name && iconName(name) === name ? iconFile(name) : null;
    if (!file) return sendError(reply, notFound);
    let body = loaded.get(file);
    if (!body) {
      body = readFile(file);
      body.catch(() => loaded.delete(file));
      loaded.set(file, body);
    }
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(await body);
  });
}
