import { describe, expect, it } from 'vitest';
import { hidesBlocks, mdUrl, publicReferences, robots } from './machines.ts';
import type { SitePage } from './page-tree.ts';
import type { SiteView, SpaceView } from './site-view.ts';

const visitor = (claims: Record<string, unknown>) => ({ visitor: { claims } });

describe('files for machines', () => {
  it('tells robots to stay away from every audience but public', () => {
    const view = (visibility: string) =>
      ({ site: { visibility }, siteUrl: 'https://docs.acme.io' }) as unknown as SiteView;
    expect(robots(view('public'))).toBe('User-agent: *\nAllow: /\n\nSitemap: https://docs.acme.io/sitemap.xml\n');
    for (const v of ['unlisted', 'share-link', 'visitor-auth'])
      expect(robots(view(v))).toBe('User-agent: *\nDisallow: /\n');
  });

  it('names the markdown of a site root index.md, of any other page <url>.md', () => {
    expect(mdUrl('http://quire.test/sites/docs')).toBe('http://quire.test/sites/docs/index.md');
    expect(mdUrl('https://docs.acme.io')).toBe('https://docs.acme.io/index.md');
    expect(mdUrl('https://docs.acme.io/guides/setup')).toBe('https://docs.acme.io/guides/setup.md');
  });

  it('knows when a document hides blocks from a visitor (its markdown would carry them)', () => {
    const doc = {
      object: 'document',
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [] },
        {
          object: 'block',
          type: 'tabs',
          nodes: [{ object: 'block', type: 'if', data: { expression: 'visitor.claims.pro' }, nodes: [] }],
        },
      ],
    };
    expect(hidesBlocks(doc, visitor({}))).toBe(true);
    expect(hidesBlocks(doc, visitor({ pro: true }))).toBe(false);
    expect(hidesBlocks({ object: 'document', nodes: [] }, visitor({}))).toBe(false);
  });

  it("writes Quire's references in a page's markdown as public URLs (the .md pages and llms files)", () => {
    const page = (id: string, path: string): SitePage => ({
      id,
      type: 'document',
      title: id,
      path,
      noIndex: false,
      noRobotsIndex: false,
      children: [],
      parent: null,
    });
    const home = page('home', 'home');
    const setup = page('setup', 'guides/setup');
    const pages = {
      roots: [home, setup],
      byId: new Map([home, setup].map((p) => [p.id, p])),
      byPath: new Map(),
      reading: [home, setup],
    };
    const file = { id: 'f1', name: 'a b.png', contentType: 'image/png', size: 1, downloadURL: '/v1/downloads/tok' };
    const v = { siteUrl: 'https://docs.acme.io', siteBasePath: '' } as unknown as SiteView;
    const s = { pages, basePath: '', files: new Map([[file.id, file]]) } as unknown as SpaceView;
    const markdown =
      'See [setup](/pages/setup#install), ![shot](gitbook-file:f1), <figure><img src="gitbook-file:f1" alt=""></figure>\n\n' +
      '{% content-ref url="/pages/setup" %}\n[/pages/setup](/pages/setup)\n{% endcontent-ref %}\n\n' +
      '[gone](/pages/nope) and `/pages/setup` in code\n\n' +
      '<table><thead><tr><th data-type="files">F</th><th data-type="content-ref">P</th></tr></thead><tbody><tr>' +
      '<td><a href="gitbook-file:f1">gitbook-file:f1</a></td><td><a href="/pages/setup">/pages/setup</a></td></tr></tbody></table>';
    const out = publicReferences(markdown, v, s);
    expect(out).toContain('[setup](https://docs.acme.io/guides/setup#install)');
    expect(out).toContain('![shot](https://docs.acme.io/v1/downloads/tok)');
    expect(out).toContain('<img src="https://docs.acme.io/v1/downloads/tok"');
    expect(out).toContain(
      '{% content-ref url="https://docs.acme.io/guides/setup" %}\n[https://docs.acme.io/guides/setup](https://docs.acme.io/guides/setup)',
    );
    expect(out).toContain('[gone](/pages/nope) and `/pages/setup` in code');
    expect(out).toContain(
      '<td><a href="https://docs.acme.io/v1/downloads/tok">https://docs.acme.io/v1/downloads/tok</a></td>' +
        '<td><a href="https://docs.acme.io/guides/setup">https://docs.acme.io/guides/setup</a></td>',
    );
    expect(out).not.toContain('gitbook-file:');
  });
});
