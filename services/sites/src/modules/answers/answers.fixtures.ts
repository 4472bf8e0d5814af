import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { eventually } from '@quire/kit/testing';
import { spaceWithPages, type SitesPlatform } from '../../test-support.ts';

/** Test helpers of the answers module: a fake chat model and a site whose pages are indexed. */

/** One chunk of an OpenAI-compatible streamed chat completion saying `content`, as a server-sent event. */
export function chatChunk(content: string): string {
  const chunk = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [] as unknown[] };
  chunk.choices = [{ index: 0, delta: { content }, finish_reason: null }];
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/**
 * A fake OpenAI-compatible chat server on loopback for a test file: `reply` answers each `POST /v1/chat/completions`
 * (its JSON body parsed), anything else is a 404. The returned `env` (the `QUIRE_AI_*` variables that reach it, with
 * `extra`) is filled once it listens, before the platforms started by hooks registered after this call.
 */
export function useFakeChat(
  reply: (body: unknown, req: IncomingMessage, res: ServerResponse) => void,
  extra: Record<string, string> = {},
): { env: Record<string, string> } {
  const env: Record<string, string> = {};
  let server: Server | null = null;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return res.writeHead(404).end();
        reply(JSON.parse(raw), req, res);
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    Object.assign(env, {
      QUIRE_AI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      QUIRE_AI_MODEL: 'fake-model',
      QUIRE_AI_ALLOW_PRIVATE: '1',
      ...extra,
    });
  });
  afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));
  return { env };
}

/** A site of `org` over a space whose live revision holds these pages, once its search finds "kayak" for `reader`. */
export async function indexedSiteWith(
  p: SitesPlatform,
  { org, title, as, reader }: { org: string; title: string; as: Actor; reader: Actor },
  pages: { title: string; markdown: string }[],
) {
  const spaceId = await spaceWithPages(p, { org, title, as }, pages);
  const site = await p.sites.call(ops.createSite, { organizationId: org, title, spaces: [spaceId] }, as);
  const where = { organizationId: org, siteId: site.id };
  await eventually(
    async () => (await p.sites.call(ops.searchSiteContent, { ...where, query: 'kayak' }, reader)).count > 0,
    10_000,
    'the space indexed',
  );
  return { where, spaceId };
}
