import { describe, expect, it } from 'vitest';
import type { ISite } from '../sites/site.entity.ts';
import { SiteTree } from '../structure/site-tree.ts';
import type { ISiteSection, ISiteSpace } from '../structure/structure.entity.ts';
import { buildPageTree, pageAt } from './page-tree.ts';
import { decodeSegments, isCustomHost, matchStructure } from './resolve-url.ts';

const at = new Date('2026-01-01T00:00:00Z');
/** What a section and a site space share: the one at `position` 1 is its level's default. */
const placed = (id: string, path: string, position: number) => ({
  id,
  siteId: 's',
  path,
  condition: null,
  isDefault: position === 1,
  order: `a${position}`,
  createdAt: at,
});
const section = (id: string, path: string, position: number, extra: Partial<ISiteSection> = {}): ISiteSection =>
  ({ ...placed(id, path, position), title: id, description: null, icon: null, ...extra }) as ISiteSection;
const space = (
  id: string,
  sectionId: string | null,
  path: string,
  position: number,
  extra: Partial<ISiteSpace> = {},
): { entity: ISiteSpace; hidden: boolean; projectedTitle: string } => ({
  entity: { ...placed(id, path, position), sectionId, spaceId: `space-${id}`, ...extra } as ISiteSpace,
  hidden: false,
  projectedTitle: id,
});
const anonymous = { visitor: { claims: {} } };
const beta = { visitor: { claims: { unsigned: { beta: true } } } };
const site = {} as ISite;

describe('published URLs', () => {
  const tree = new SiteTree(
    [
      section('guide', 'guide', 1),
      section('api', 'api', 2),
      section('beta', 'beta', 3, { condition: 'visitor.claims.unsigned.beta' }),
    ],
    [
      space('g1', 'guide', 'v1', 1),
      space('g2', 'guide', 'v2', 2),
      space('a1', 'api', 'rest', 1),
      space('b1', 'beta', 'preview', 1),
    ],
  );
  const match = (path: string, visitor = anonymous) => {
    const segments = decodeSegments(path)!;
    const m = matchStructure(tree, { site, siteBasePath: '/sites/docs', segments }, visitor);
    return m && [m.section?.id, m.siteSpace.entity.id, m.basePath, m.pagePath];
  };

  it('maps section / site space / page paths as urls.published builds them', () => {
    expect(match('/')).toEqual(['guide', 'g1', '/sites/docs', '']);
    expect(match('/getting-started/install')).toEqual(['guide', 'g1', '/sites/docs', 'getting-started/install']);
    expect(match('/v2/setup')).toEqual(['guide', 'g2', '/sites/docs/v2', 'setup']);
    expect(match('/api')).toEqual(['api', 'a1', '/sites/docs/api', '']);
    expect(match('/api/jobs')).toEqual(['api', 'a1', '/sites/docs/api', 'jobs']);
    // The default's own path is not a segment of its URL: it is a page path there.
    expect(match('/v1')).toEqual(['guide', 'g1', '/sites/docs', 'v1']);
  });

  it('tells whether a longer URL could still name a section or site space (complete)', () => {
    const complete = (path: string) =>
      matchStructure(tree, { site, siteBasePath: '/sites/docs', segments: decodeSegments(path)! }, anonymous)?.complete;
    // The root left both choices to the defaults; `/v2` named the site space; `/api` has one site space.
    expect([complete('/'), complete('/v2'), complete('/api'), complete('/setup')]).toEqual([false, true, true, true]);
  });

  it('shows a section whose condition holds only to visitors with the claim', () => {
    expect(match('/beta')).toEqual(['guide', 'g1', '/sites/docs', 'beta']);
    expect(match('/beta', beta)).toEqual(['beta', 'b1', '/sites/docs/beta', '']);
  });

  it('refuses traversal, encoded slashes, bad escapes and oversized paths', () => {
    expect(decodeSegments('/a/%2e%2e/b')).toBeNull();
    expect(decodeSegments('/a/..%2Fb')).toBeNull();
    expect(decodeSegments('/a/%E0%A4%A')).toBeNull();
    expect(decodeSegments('/a/%00')).toBeNull();
    expect(decodeSegments(`/${'a'.repeat(3000)}`)).toBeNull();
    expect(decodeSegments('//a///b/')).toEqual(['a', 'b']);
  });

  it('routes custom hostnames, not the instance host or bare addresses', () => {
    expect(isCustomHost('docs.acme.io', 'http://quire.test')).toBe(true);
    expect(isCustomHost('DOCS.acme.io:443', 'http://quire.test')).toBe(true);
    expect(isCustomHost('quire.test', 'http://quire.test')).toBe(false);
    expect(isCustomHost('127.0.0.1:8080', 'http://quire.test')).toBe(false);
    expect(isCustomHost('localhost', 'http://quire.test')).toBe(false);
    expect(isCustomHost('a..b.c', 'http://quire.test')).toBe(false);
    expect(isCustomHost('<script>.x.y', 'http://quire.test')).toBe(false);
  });
});

describe('page trees', () => {
  const pages = [
    { id: 'p1', type: 'document', title: 'Intro', path: 'intro', pages: [] },
    {
      id: 'g',
      type: 'group',
      title: 'Guides',
      path: 'guides',
      pages: [
        { id: 'p2', type: 'document', title: 'Setup', path: 'guides/setup', pages: [] },
        {
          id: 'p3',
          type: 'document',
          title: 'Secret',
          path: 'guides/secret',
          condition: 'visitor.claims.unsigned.beta',
          pages: [],
        },
        {
          id: 'p4',
          type: 'document',
          title: 'Hidden',
          path: 'guides/hidden',
          hidden: true,
          pages: [{ id: 'p5', type: 'document', title: 'Under hidden', path: 'guides/hidden/under', pages: [] }],
        },
      ],
    },
  ];

  it('keeps reading order, serves groups by their first page, leaves out hidden pages and what a condition hides', () => {
    const tree = buildPageTree(pages as never, anonymous);
    expect(tree.reading.map((p) => p.id)).toEqual(['p1', 'p2']);
    expect(pageAt(tree, '')?.id).toBe('p1');
    expect(pageAt(tree, 'guides')?.id).toBe('p2');
    expect(pageAt(tree, 'guides/secret/')).toBeNull();
    // A hidden page and its sub-pages are at no URL of the site (nor in its lists, built from the same tree).
    expect(pageAt(tree, 'guides/hidden')).toBeNull();
    expect(pageAt(tree, 'guides/hidden/under')).toBeNull();
    expect([...tree.byId.keys()]).not.toContain('p5');
    expect(pageAt(buildPageTree(pages as never, beta), 'guides/secret')?.id).toBe('p3');
  });
});
