import { describe, expect, it } from 'vitest';
import type { RevisionFile } from '@quire/contracts';
import { buildPageTree } from '../page-tree.ts';
import { coverHtml, coverOf, coverPositionY } from '@quire/document/render';

const file = (id: string, over: Partial<RevisionFile> = {}): RevisionFile => ({
  id,
  name: `${id}.png`,
  contentType: 'image/png',
  downloadURL: `/v1/downloads/${id}?sig="x"&t=<1>`,
  size: 10,
  dimensions: { width: 1600, height: 900 },
  ...over,
});
const files = new Map([
  ['f1', file('f1')],
  ['f2', file('f2', { dimensions: { width: 1600, height: 1200 } })],
  ['pdf', file('pdf', { contentType: 'application/pdf', dimensions: undefined })],
]);

describe("a page's cover on the published site", () => {
  it("is read from the revision page (GitBook's {ref, yPos}) into the site's page tree", () => {
    const tree = buildPageTree(
      [
        { id: 'p1', type: 'document', title: 'A', path: 'a', cover: { ref: { kind: 'file', file: 'f1' }, yPos: -40 } },
        { id: 'p2', type: 'document', title: 'B', path: 'b', cover: { yPos: 3 } },
        { id: 'p3', type: 'document', title: 'C', path: 'c' },
      ],
      { visitor: { claims: {} } },
    );
    expect(tree.byId.get('p1')!.cover).toEqual({
      ref: { kind: 'file', file: 'f1' },
      refDark: undefined,
      yPos: -40,
      height: undefined,
    });
    expect(tree.byId.get('p2')!.cover).toBeUndefined();
    expect(tree.byId.get('p3')!.cover).toBeUndefined();
  });

  it('shows the image above the title, alt empty, at the height and position GitBook gives it, escaped', () => {
    const out = coverHtml(coverOf({ ref: { kind: 'file', file: 'f1' }, yPos: 0 }), files).value;
    expect(out).toBe(
      '<div class="page-cover" style="height:240px"><img src="/v1/downloads/f1?sig=&quot;x&quot;&amp;t=&lt;1&gt;" alt="" ' +
        'width="1600" height="900" style="object-position:50% 50%" decoding="async" fetchpriority="high"></div>',
    );
  });

  it('moves the image by yPos within what overflows the cover, as GitBook computes it', () => {
    const box = { width: 736, height: 240 };
    // 1600×900 scaled to 736 wide is 414 high: 174 px overflow, 189 image pixels each way
    expect(coverPositionY(0, { width: 1600, height: 900 }, box)).toBe(50);
    expect(coverPositionY(189.13, { width: 1600, height: 900 }, box)).toBe(0);
    expect(coverPositionY(-500, { width: 1600, height: 900 }, box)).toBe(100);
    expect(coverPositionY(94.57, { width: 1600, height: 900 }, box)).toBe(25);
    // an image no taller than the cover, or of unknown size, is centred
    expect(coverPositionY(80, { width: 3000, height: 400 }, box)).toBe(50);
    expect(coverPositionY(80, undefined, box)).toBe(50);
    const out = coverHtml(coverOf({ ref: { kind: 'file', file: 'f2' }, yPos: -100, height: 5000 }), files).value;
    expect(out).toContain('style="height:700px"');
    expect(out).toMatch(/object-position:50% \d+(\.\d+)?%/);
  });

  it('has a dark-mode image when the cover has one', () => {
    const cover = coverOf({ ref: { kind: 'file', file: 'f1' }, refDark: { kind: 'file', file: 'f2' }, yPos: 0 });
    expect(coverHtml(cover, files).value).toContain(
      '<picture><source srcset="/v1/downloads/f2?sig=&quot;x&quot;&amp;t=&lt;1&gt;" media="(prefers-color-scheme: dark)"><img ',
    );
  });

  it('shows nothing for a cover that is not an image file of the revision', () => {
    for (const ref of [
      { kind: 'url', url: 'https://elsewhere.example/x.png' },
      { kind: 'file', file: 'pdf' },
      { kind: 'file', file: 'gone' },
      { kind: 'file', file: 'f1', space: 'other' },
    ])
      expect(coverHtml(coverOf({ ref, yPos: 0 }), files).value).toBe('');
    expect(coverHtml(undefined, files).value).toBe('');
  });
});
