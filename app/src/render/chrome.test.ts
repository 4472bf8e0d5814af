import { describe, expect, it } from 'vitest';
import type { RevisionFile, RevisionPages } from '../api/endpoints.ts';
import { pageChrome, readingTree } from './chrome.ts';

const BASE = '/o/acme/s/sp1';
const pages = [
  { id: 'p1', type: 'document', title: 'Intro', path: 'intro', updatedAt: '2026-11-02T10:00:00.000Z', pages: [] },
  {
    id: 'g1',
    type: 'group',
    title: 'Guides <&>',
    path: 'guides',
    pages: [
      {
        id: 'p2',
        type: 'document',
        title: 'Setup',
        path: 'guides/setup',
        cover: { ref: { kind: 'file', file: 'f1' }, yPos: 0 },
        pages: [{ id: 'p3', type: 'document', title: 'Linux', path: 'guides/setup/linux', pages: [] }],
      },
      { id: 'h1', type: 'document', title: 'Secret', path: 'guides/secret', hidden: true, pages: [] },
    ],
  },
  { id: 'l1', type: 'link', title: 'Elsewhere', href: 'https://example.com' },
  { id: 'p4', type: 'document', title: 'FAQ', path: 'faq', pages: [] },
] as unknown as RevisionPages['pages'];
const files = [
  {
    id: 'f1',
    name: 'cover.png',
    contentType: 'image/png',
    size: 2048,
    dimensions: { width: 1600, height: 900 },
    downloadURL: 'https://docs.example.com/v1/downloads/f1?sig=abc',
  },
] as RevisionFile[];
const chromeOf = (path: string, headings: { id: string; text: string; level: number }[] = []) =>
  pageChrome({ path, pages, files, base: BASE, headings });

describe("the site's chrome around a page of the app", () => {
  it('reads the pages in the order of the site: documents only, no hidden page', () => {
    expect(readingTree(pages).reading.map((p) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  it('draws the breadcrumbs of a nested page: a group without a link, a page with its app URL, titles escaped', () => {
    expect(chromeOf('guides/setup/linux').breadcrumbs).toBe(
      '<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li>Guides &lt;&amp;&gt;</li>' +
        `<li><a href="${BASE}/guides/setup">Setup</a></li><li><span aria-current="page">Linux</span></li></ol></nav>`,
    );
    // a page at the top level has none, as on the site
    expect(chromeOf('intro').breadcrumbs).toBe('');
  });

  it('links the previous and next pages in reading order, over groups and links', () => {
    const { prevNext } = chromeOf('guides/setup/linux');
    expect(prevNext).toContain(`<a class="prev" href="${BASE}/guides/setup" rel="prev">`);
    expect(prevNext).toContain(`<a class="next" href="${BASE}/faq" rel="next"><span class="hint-text">Next</span>`);
    // the first page: no previous (an empty cell keeps Next on the right), the last: no next
    expect(chromeOf('intro').prevNext).toContain('aria-label="Previous and next pages"><span></span><a class="next"');
    expect(chromeOf('faq').prevNext).not.toContain('class="next"');
    // a hidden page is in no reading order: no previous or next, its breadcrumbs still drawn
    expect(chromeOf('guides/secret').prevNext).toBe('');
    expect(chromeOf('guides/secret').breadcrumbs).toContain('<span aria-current="page">Secret</span>');
  });

  it("draws the cover with the file's download path on the app's origin, and Last updated", () => {
    const { cover, updated } = chromeOf('guides/setup');
    expect(cover).toMatch(
      /^<div class="page-cover" style="height:240px"><img src="\/v1\/downloads\/f1\?sig=abc" alt=""/,
    );
    expect(updated).toBe('');
    expect(chromeOf('intro').cover).toBe('');
    expect(chromeOf('intro').updated).toBe(
      '<p class="updated">Last updated <time datetime="2026-11-02T10:00:00.000Z">2026-11-02</time></p>',
    );
  });

  it('lists the headings of the first three levels in the outline, none without headings', () => {
    const { outline } = chromeOf('intro', [
      { id: 'a', text: 'Alpha', level: 2 },
      { id: 'b', text: 'Beta <i>', level: 3 },
      { id: 'c', text: 'Deep', level: 4 },
    ]);
    expect(outline).toBe(
      '<nav class="toc" aria-label="On this page"><p class="toc-title">On this page</p><ul>' +
        '<li class="toc-2"><a href="#a">Alpha</a></li><li class="toc-3"><a href="#b">Beta &lt;i&gt;</a></li></ul></nav>',
    );
    expect(chromeOf('intro').outline).toBe('');
  });
});
