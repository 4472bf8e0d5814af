import { describe, expect, it } from 'vitest';
import { DomainError } from '@quire/kit';
import { failureOf, pngImage, serveWebSite, useWebSite } from '@quire/kit/testing';
import { ACME_DOCS, crawlLimits, localFetch } from './import.fixtures.ts';
import { crawlWebsite, websiteFetch } from './website-crawler.ts';

const site = useWebSite(ACME_DOCS);

describe('crawlWebsite', () => {
  it('reads the start page and the same-site pages it links to, breadth first, each once, then their images', async () => {
    const crawled = await crawlWebsite(`${site.origin}/docs/`, localFetch, crawlLimits());
    expect(crawled.pages.map((p) => [p.key.replace(site.origin, ''), p.depth, p.title])).toEqual([
      ['/docs', 0, 'Acme Docs'],
      ['/docs/guides/setup.html', 1, 'Setup'],
      ['/docs/api', 1, 'API'],
      ['/docs/faq.html', 1, 'FAQ'],
      ['/docs/api/auth.html', 2, 'Authentication'],
      ['/docs/api/tokens.html', 3, 'Tokens'],
    ]);
    // The FAQ is one page under three URLs: its canonical one, a variant naming it canonical, a redirect to it.
    expect(crawled.aliases.get(`${site.origin}/docs/faq.html?ref=nav`)).toBe(`${site.origin}/docs/faq.html`);
    expect(crawled.aliases.get(`${site.origin}/docs/old.html`)).toBe(`${site.origin}/docs/faq.html`);
    expect(
      [...crawled.images.values()].map((i) => [
        i.url.replace(site.origin, ''),
        i.name,
        i.contentType,
        i.bytes.length > 0,
      ]),
    ).toEqual([
      ['/docs/img/logo.png', 'logo.png', 'image/png', true],
      ['/docs/img/diagram.png', 'diagram.png', 'image/png', true],
    ]);
    expect({ imported: crawled.importedResources, total: crawled.totalResources }).toEqual({ imported: 8, total: 11 });
    expect(crawled.skipped.map((s) => [s.url.replace(site.origin, ''), s.reason])).toEqual([
      ['/docs/manual.pdf', 'not an HTML page (application/pdf)'],
      ['/docs/missing.html', 'HTTP 404'],
      ['/docs/img/missing.png', 'HTTP 404'],
    ]);
    // Nothing out of the site, nothing twice (the header's logo is not content, the blog is another part of the site).
    expect(site.requests.filter((r) => r.startsWith('/blog'))).toEqual([]);
    expect(new Set(site.requests).size).toBe(site.requests.length);
  });

  it('stops at the depth and page limits, counting what it left out', async () => {
    const shallow = await crawlWebsite(`${site.origin}/docs/`, localFetch, crawlLimits({ maxDepth: 1 }));
    expect(shallow.pages.map((p) => p.title)).toEqual(['Acme Docs', 'Setup', 'API', 'FAQ']);
    expect(shallow.skipped.map((s) => s.reason)).toContain(
      'more than 1 links away from the start page (QUIRE_IMPORT_MAX_DEPTH)',
    );
    expect(shallow.totalResources - shallow.importedResources).toBe(4); // the PDF, the missing page and image, Authentication

    const few = await crawlWebsite(`${site.origin}/docs/`, localFetch, crawlLimits({ maxPages: 2 }));
    expect(few.pages.map((p) => p.title)).toEqual(['Acme Docs', 'Setup']);
    expect(few.importedResources).toBeLessThan(few.totalResources);

    const alone = await crawlWebsite(`${site.origin}/docs/`, localFetch, crawlLimits({ maxDepth: 0 }));
    expect(alone.pages.map((p) => p.title)).toEqual(['Acme Docs']);
  });

  it('stops at the byte and time budgets, keeping what it read', async () => {
    const start = (await fetch(`${site.origin}/docs/`)).headers.get('content-length');
    const bytes = await crawlWebsite(
      `${site.origin}/docs/`,
      localFetch,
      crawlLimits({ maxBytes: Number(start) + 100, concurrency: 1 }),
    );
    expect(bytes.pages.map((p) => p.title)).toEqual(['Acme Docs']);
    expect(bytes.bytes).toBeLessThanOrEqual(Number(start) + 100);
    expect(bytes.skipped[0]!.reason).toMatch(/QUIRE_IMPORT_MAX_BYTES|larger than/);

    const slow = await serveWebSite({
      '/': '<h1>Start</h1><a href="/slow">slow</a><a href="/fast">fast</a>',
      '/slow': { body: '<h1>Slow</h1>', delayMs: 2_000 },
      '/fast': '<h1>Fast</h1>',
    });
    try {
      const timed = await crawlWebsite(`${slow.origin}/`, localFetch, crawlLimits({ timeoutMs: 500 }));
      expect(timed.pages.map((p) => p.title)).toEqual(['Start', 'Fast']);
      expect(timed.skipped).toEqual([{ url: `${slow.origin}/slow`, reason: expect.stringMatching(/timed out/) }]);
      expect(timed.ms).toBeLessThan(1_500);
    } finally {
      await slow.close();
    }
  });

  it('keeps images within the per-file limit, and reads data: URLs', async () => {
    const big = pngImage(600, 600);
    const pics = await serveWebSite({
      '/': `<main><h1>Pics</h1><img src="/big.png"><img src="data:image/png;base64,${pngImage(2, 2).toString('base64')}" alt="dot"><img src="/page"></main>`,
      '/big.png': { body: big, type: 'image/png' },
      '/page': '<p>not an image</p>',
    });
    try {
      const crawled = await crawlWebsite(`${pics.origin}/`, localFetch, crawlLimits({ maxImageBytes: big.length - 1 }));
      expect([...crawled.images.values()].map((i) => [i.name, i.contentType])).toEqual([['image-2.png', 'image/png']]);
      expect(crawled.skipped.map((s) => s.reason)).toEqual([
        expect.stringMatching(/larger than/),
        'not an image (text/html)',
      ]);
      expect({ imported: crawled.importedResources, total: crawled.totalResources }).toEqual({ imported: 2, total: 4 });
    } finally {
      await pics.close();
    }
  });

  it('refuses a start page it cannot read with a 400 naming url and the reason', async () => {
    const reasons = async (url: string, fetch = localFetch) => {
      const err = await failureOf<DomainError>(crawlWebsite(url, fetch, crawlLimits()));
      expect(err).toBeInstanceOf(DomainError);
      expect(err.reason).toBe('invalid_input');
      return err.message;
    };
    expect(await reasons(`${site.origin}/docs/missing.html`)).toBe(
      `Invalid request: url: ${site.origin}/docs/missing.html answered HTTP 404`,
    );
    expect(await reasons(`${site.origin}/docs/manual.pdf`)).toBe(
      `Invalid request: url: ${site.origin}/docs/manual.pdf is not an HTML page (application/pdf)`,
    );
    expect(await reasons('http://127.0.0.1:1/')).toBe(
      'Invalid request: url: Refusing to fetch http://127.0.0.1:1/: ECONNREFUSED',
    );
    expect(await reasons('http://no-such-host.invalid/')).toMatch(
      /^Invalid request: url: Refusing to fetch http:\/\/no-such-host\.invalid\/: cannot resolve no-such-host\.invalid/,
    );
    const guarded = websiteFetch({ QUIRE_ALLOW_PRIVATE_FETCH: false, QUIRE_OUTBOUND_FETCH: true });
    expect(await reasons(`${site.origin}/docs/`, guarded)).toMatch(
      /resolves to a loopback or private address; set QUIRE_ALLOW_PRIVATE_FETCH=1/,
    );
  });

  it('follows the start page’s redirect and takes the site from where it lands, checking every hop', async () => {
    const hop = await serveWebSite({ '/start': { location: `${site.origin}/docs/` } });
    try {
      const crawled = await crawlWebsite(`${hop.origin}/start`, localFetch, crawlLimits({ maxDepth: 0 }));
      expect(crawled.scope.origin).toBe(site.origin);
      expect(crawled.pages.map((p) => p.key)).toEqual([`${site.origin}/docs`]);
      expect(crawled.aliases.get(`${hop.origin}/start`)).toBe(`${site.origin}/docs`);
      // A redirect to a private address is refused like the address itself.
      const guarded = websiteFetch({ QUIRE_ALLOW_PRIVATE_FETCH: false, QUIRE_OUTBOUND_FETCH: true });
      const err = await failureOf<DomainError>(crawlWebsite(`${hop.origin}/start`, guarded, crawlLimits()));
      expect(err.message).toMatch(/^Invalid request: url: Refusing to fetch/);
    } finally {
      await hop.close();
    }
  });
  it('follows links only where the site’s robots.txt lets Quire-Import in', async () => {
    const robots = 'User-agent: *\nDisallow: /docs/guides/\n\nUser-agent: Quire-Import\nDisallow: /docs/api\n';
    const guarded = await serveWebSite({ ...ACME_DOCS, '/robots.txt': { body: robots, type: 'text/plain' } });
    try {
      const crawled = await crawlWebsite(`${guarded.origin}/docs/`, localFetch, crawlLimits());
      // The group naming Quire-Import applies (not `*`): the API pages are left out, the guides are read.
      expect(crawled.pages.map((p) => p.key.replace(guarded.origin, ''))).toEqual([
        '/docs',
        '/docs/guides/setup.html',
        '/docs/faq.html',
      ]);
      expect(crawled.skipped).toContainEqual({
        url: `${guarded.origin}/docs/api`,
        reason: `disallowed by ${guarded.origin}/robots.txt`,
      });
      expect(guarded.requests.filter((r) => r.startsWith('/docs/api'))).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it('follows no link when robots.txt cannot be had (HTTP 5xx), and still imports the start page', async () => {
    const down = await serveWebSite({ ...ACME_DOCS, '/robots.txt': { status: 503, body: 'busy', type: 'text/plain' } });
    try {
      const crawled = await crawlWebsite(`${down.origin}/docs/`, localFetch, crawlLimits());
      expect(crawled.pages.map((p) => p.key.replace(down.origin, ''))).toEqual(['/docs']);
      expect(crawled.skipped[0]?.reason).toBe('robots.txt answered HTTP 503: links not followed');
      expect(down.requests.filter((r) => r !== '/docs/' && r !== '/robots.txt' && !r.startsWith('/docs/img/'))).toEqual(
        [],
      );
    } finally {
      await down.close();
    }
  });
});
