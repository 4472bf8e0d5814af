import { describe, expect, it } from 'vitest';
import { hidesBlocks, mdUrl, robots } from './machines.ts';
import type { SiteView } from './site-view.ts';

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
});
