import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { failureOf, orgAdmin, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { forgetEmbeds } from './embed-metadata.ts';

// getEmbedByUrl and getEmbedByUrlInSpace against a local HTTP server (QUIRE_ALLOW_PRIVATE_FETCH=1 lets the
// guarded fetch reach 127.0.0.1, as in the other outbound tests).

let server: Server;
let base: string;
const hits = new Map<string, number>();

const html = (head: string, body = '<p>Hello</p>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (type: string, body: string, status = 200) =>
      void res.writeHead(status, { 'content-type': type }).end(body);
    if (path === '/video')
      return send(
        'text/html; charset=utf-8',
        html(
          `<title>Ignored title</title><link rel="alternate" type="application/json+oembed" href="/oembed.json?u=1"><link rel="icon" href="/favicon.png">`,
        ),
      );
    if (path === '/oembed.json')
      return send(
        'application/json',
        JSON.stringify({
          type: 'video',
          title: 'Platypus film',
          provider_name: 'Tube',
          html: '<iframe src="https://tube.example/embed/1"></iframe>',
        }),
      );
    if (path === '/article')
      return send(
        'text/html',
        html(
          '<title>Plain title</title><meta property="og:title" content="  Wombat   facts "><meta property="og:site_name" content="Marsupials">',
        ),
      );
    if (path === '/plain') return send('text/html', html('<title>Just a &lt;title&gt;</title>'));
    if (path === '/bad-oembed')
      return send(
        'text/html',
        html('<title>Bad oEmbed</title><link rel="alternate" type="application/json+oembed" href="/nope.json">'),
      );
    if (path === '/photo') return send('image/png', 'PNG');
    if (path === '/slow') return void setTimeout(() => send('text/html', html('<title>Late</title>')), 8_000);
    return send('text/plain', 'not found', 404);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  forgetEmbeds();
  hits.clear();
});

const t = useTestService(contentService, loadContentConfig, {
  label: 'embeds',
  env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
});
const ORG = 'org-embeds';
const admin = orgAdmin(ORG);
const embed = (path: string, as: Actor = admin) => t.call(ops.getEmbedByUrl, { url: `${base}${path}` }, as);

describe('getEmbedByUrl', () => {
  it("answers the page's oEmbed HTML (discovered from its <link>), with its title, provider and icon", async () => {
    expect(await embed('/video')).toEqual({
      type: 'rich',
      title: 'Platypus film',
      site: 'Tube',
      icon: `${base}/favicon.png`,
      html: '<iframe src="https://tube.example/embed/1"></iframe>',
    });
  });

  it('falls back to OpenGraph, then <title>, then the URL; the site is og:site_name, else the host', async () => {
    expect(await embed('/article')).toEqual({ type: 'link', title: 'Wombat facts', site: 'Marsupials' });
    expect(await embed('/plain')).toEqual({ type: 'link', title: 'Just a <title>', site: '127.0.0.1' });
    // An oEmbed link that answers 404 leaves the page's own metadata.
    expect(await embed('/bad-oembed')).toEqual({ type: 'link', title: 'Bad oEmbed', site: '127.0.0.1' });
  });

  it('is a link card of the URL when the page cannot be read: an error, not HTML, too slow, refused', async () => {
    for (const path of ['/missing', '/photo'])
      expect(await embed(path)).toEqual({ type: 'link', title: `${base}${path}`, site: '127.0.0.1' });
    const started = Date.now();
    expect(await embed('/slow')).toEqual({ type: 'link', title: `${base}/slow`, site: '127.0.0.1' });
    expect(Date.now() - started).toBeLessThan(7_000);
  }, 15_000);

  it('keeps what it read: a second ask, and concurrent asks, fetch the page once', async () => {
    await Promise.all([embed('/article'), embed('/article'), embed('/article')]);
    await embed('/article');
    expect(hits.get('/article')).toBe(1);
  });

  it('answers 400 naming `url` for what is not an absolute http(s) URL', async () => {
    for (const url of ['file:///etc/passwd', 'not a url', 'javascript:alert(1)']) {
      const failure = await failureOf(t.call(ops.getEmbedByUrl, { url }, admin));
      expect(failure.message).toMatch(/url/);
    }
  });
});

describe('getEmbedByUrlInSpace', () => {
  it('answers the embed to those who read the space (a reader of its site too), 404 to others', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Embeds' }, admin);
    const reader: Actor = {
      kind: 'reader',
      reader: { site: 's1', organization: ORG, siteSpaces: [{ id: 'ss1', space: space.id }], claims: { unsigned: {} } },
    };
    const url = `${base}/article`;
    const card = { type: 'link', title: 'Wombat facts', site: 'Marsupials' };
    expect(await t.call(ops.getEmbedByUrlInSpace, { spaceId: space.id, url }, admin)).toEqual(card);
    expect(await t.call(ops.getEmbedByUrlInSpace, { spaceId: space.id, url }, reader)).toEqual(card);
    const stranger = failureOf(t.call(ops.getEmbedByUrlInSpace, { spaceId: space.id, url }, orgAdmin('org-other')));
    expect((await stranger).reason).toBe('not_found');
  });
});
