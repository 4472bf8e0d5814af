import { describe, expect, it } from 'vitest';
import type { RevisionFile } from '@quire/contracts';
import { renderBlocks } from './blocks.ts';
import { newRenderContext, type DocNode, type RenderContext } from './context.ts';
import { footnotesOf } from './inlines.ts';
import { markdownToDocument } from '../markdown/markdown-to-document.ts';

const text = (t: string, marks: string[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: t, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const p = (...nodes: DocNode[]): DocNode => ({ object: 'block', type: 'paragraph', nodes });
/** An inline link to `ref`, reading `label`. */
const link = (ref: Record<string, string>, label: string): DocNode => ({
  object: 'inline',
  type: 'link',
  data: { ref },
  nodes: [text(label)],
});
const file: RevisionFile = {
  id: 'f1',
  name: 'shot.png',
  contentType: 'image/png',
  downloadURL: '/v1/downloads/tok',
  size: 2048,
  dimensions: { width: 640, height: 480 },
};

function context(overrides: Partial<RenderContext> = {}): RenderContext & { unknown: string[] } {
  const unknown: string[] = [];
  const ctx = newRenderContext({
    files: new Map([[file.id, file]]),
    resolveRef: (ref) =>
      ref.kind === 'page' && ref.page === 'p2' ? { href: '/sites/docs/setup', title: 'Setup' } : null,
    resolveRelative: (url) => (url.startsWith('setup.md') ? `/sites/docs/setup${url.slice('setup.md'.length)}` : null),
    variables: {},
    // the site evaluates conditions against the visitor's claims (kit's conditionHolds); here, a reader in beta
    conditionHolds: (expression) => expression === 'visitor.claims.unsigned.beta',
    logUnknown: (t) => unknown.push(t),
    ...overrides,
  });
  return Object.assign(ctx, { unknown });
}

const render = async (nodes: DocNode[], ctx = context()) => (await renderBlocks(nodes, ctx)).value;

describe('document blocks', () => {
  it('renders headings with stable, unique anchors and collects the outline', async () => {
    const ctx = context();
    const out = await render(
      [
        { object: 'block', type: 'heading-1', nodes: [text('Get started')] },
        { object: 'block', type: 'heading-2', nodes: [text('Get started')] },
        { object: 'block', type: 'heading-3', data: { id: 'custom' }, nodes: [text('Deep')] },
      ],
      ctx,
    );
    expect(out).toContain(
      '<h2 id="get-started">Get started<a class="anchor" href="#get-started" aria-label="Link to Get started">#</a></h2>',
    );
    expect(out).toContain('<h3 id="get-started-1">');
    expect(out).toContain('<h4 id="custom">');
    expect(ctx.headings.map((h) => [h.id, h.level])).toEqual([
      ['get-started', 2],
      ['get-started-1', 3],
      ['custom', 4],
    ]);
  });

  it('renders marks, links to pages, relative links, files; drops javascript: links to their text', async () => {
    const out = await render([
      p(
        text('bold', ['bold', 'italic']),
        link({ kind: 'page', page: 'p2' }, 'setup'),
        link({ kind: 'url', url: 'setup.md#opts' }, 'rel'),
        link({ kind: 'url', url: 'javascript:alert(1)' }, 'evil'),
        link({ kind: 'url', url: 'https://x.test/' }, 'out'),
        { object: 'inline', type: 'inline-math', data: { formula: 'x^2' } },
      ),
    ]);
    expect(out).toContain('<em><strong>bold</strong></em>');
    expect(out).toContain('<a href="/sites/docs/setup">setup</a>');
    expect(out).toContain('<a href="/sites/docs/setup#opts">rel</a>');
    expect(out).toContain('evil');
    expect(out).not.toContain('javascript');
    expect(out).toContain('<a href="https://x.test/" rel="noopener nofollow">out</a>');
    expect(out).toContain('class="katex"');
  });

  it('draws an icon inline as a mask of its SVG, coloured, named for screen readers; an unknown one not at all', async () => {
    const icon = (data: Record<string, string>): DocNode => ({ object: 'inline', type: 'icon', data, isVoid: true });
    const nodes = [p(text('Read '), icon({ icon: 'book-open', color: 'info' }), icon({ icon: 'nope' }), text(' it'))];
    const iconUrl = (name: string) => (name === 'book-open' ? `/_quire/icons/${name}.svg` : null);
    expect(await render(nodes, context({ iconUrl }))).toBe(
      '<p>Read <span class="inline-icon fg-info" role="img" aria-label="book-open" style="--icon:url(/_quire/icons/book-open.svg)"></span> it</p>',
    );
    // a renderer with no icons (the context has none) draws none
    expect(await render(nodes)).toBe('<p>Read  it</p>');
  });

  it("colours text with every colour of GitBook's documents, `$`-prefixed ones included", async () => {
    const colored = (t: string, data: Record<string, string>): DocNode => ({
      object: 'text',
      leaves: [{ text: t, marks: [{ type: 'color', data }] }],
    });
    const out = await render([
      p(
        colored('a', { text: '$primary', background: 'default' }),
        colored('b', { text: 'pink', background: '$warning' }),
        colored('c', { text: 'cyan', background: 'violet' }),
        colored('d', { text: 'chartreuse', background: '$nope' }),
      ),
    ]);
    expect(out).toContain('<span class="fg-primary">a</span>');
    expect(out).toContain('<span class="fg-pink bg-warning">b</span>');
    expect(out).toContain('<span class="fg-cyan bg-violet">c</span>');
    expect(out).toContain('d');
    expect(out).not.toContain('chartreuse');
    expect(out).not.toMatch(/fg-nope|bg-nope|fg-chartreuse/);
  });

  it('renders code with shiki and its title, hints, tabs without script, expandables, tables and images', async () => {
    const out = await render([
      {
        object: 'block',
        type: 'code',
        data: { syntax: 'ts', title: 'a.ts' },
        nodes: [{ object: 'block', type: 'code-line', nodes: [text('const a = 1 < 2;')] }],
      },
      { object: 'block', type: 'hint', data: { style: 'warning' }, nodes: [p(text('Careful'))] },
      {
        object: 'block',
        type: 'tabs',
        nodes: [
          { object: 'block', type: 'tabs-item', data: { title: 'npm' }, nodes: [p(text('npm i'))] },
          { object: 'block', type: 'tabs-item', data: { title: 'yarn' }, nodes: [p(text('yarn add'))] },
        ],
      },
      {
        object: 'block',
        type: 'expandable',
        fragments: [
          { object: 'fragment', fragment: 'expandable-title', nodes: [p(text('More'))] },
          { object: 'fragment', fragment: 'expandable-body', nodes: [p(text('Hidden details'))] },
        ],
      },
      {
        object: 'block',
        type: 'table',
        data: {
          view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
          definition: {
            c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'left' },
            c2: { id: 'c2', title: 'Size', type: 'text', textAlignment: 'right' },
          },
          records: {
            r2: { orderIndex: 'b', values: { c1: 'f3', c2: 'f4' } },
            r1: { orderIndex: 'a', values: { c1: 'f1', c2: 'f2' } },
          },
        },
        fragments: ['first', '1', 'second', '2'].map((t, i) => ({
          object: 'fragment',
          fragment: `f${i + 1}`,
          nodes: [p(text(t))],
        })),
      },
      {
        object: 'block',
        type: 'images',
        nodes: [
          {
            object: 'block',
            type: 'image',
            data: { ref: { kind: 'file', file: 'f1' }, alt: 'A "shot"' },
            fragments: [],
          },
        ],
      },
      {
        object: 'block',
        type: 'images',
        nodes: [
          {
            object: 'block',
            type: 'image',
            data: { ref: { kind: 'url', url: 'https://tracker.test/p.png' }, alt: 'remote' },
            fragments: [],
          },
        ],
      },
    ]);
    expect(out).toMatch(/<figure class="code"><figcaption>a.ts<\/figcaption><pre class="shiki/);
    expect(out).toContain('&lt;');
    // Each token has its own colour in both themes (the first line of a fresh grammar too).
    expect(out).toContain('<span style="color:#005CC5;--shiki-dark:#79B8FF">a</span>');
    expect(out).toContain(
      '<div class="hint hint-warning" role="note"><p class="hint-label">Warning</p><p>Careful</p></div>',
    );
    expect(out).toMatch(
      /<input class="tab-input" type="radio" name="tabs-1" id="tabs-1-0" checked><label class="tab-label" for="tabs-1-0">npm<\/label>/,
    );
    expect(out).toContain('<div class="tab-panel" data-tab="1"><p>yarn add</p></div>');
    expect(out).toContain(
      '<details class="expandable"><summary>More</summary><div class="expandable-body"><p>Hidden details</p></div></details>',
    );
    expect(out.indexOf('first')).toBeLessThan(out.indexOf('second'));
    expect(out).toContain('<th scope="col" class="align-right">Size</th>');
    expect(out).toContain(
      '<img class="" src="/v1/downloads/tok" alt="A &quot;shot&quot;" width="640" height="480" loading="lazy" decoding="async">',
    );
    // An image of another origin is never loaded by the page: a link instead.
    expect(out).toContain(
      '<a class="external-image" href="https://tracker.test/p.png" rel="noopener nofollow">remote</a>',
    );
    expect(out).not.toContain('<img class="" src="https://tracker.test');
  });

  it("draws an image at its block's width: pixels (the height following the file's), or a share of the column", async () => {
    const image = (width: unknown): DocNode => ({
      object: 'block',
      type: 'images',
      nodes: [
        { object: 'block', type: 'image', data: { ref: { kind: 'file', file: 'f1' }, alt: '', width }, fragments: [] },
      ],
    });
    const img = async (width: unknown) => (await render([image(width)])).match(/<img[^>]*>/)![0];
    expect(await img(320)).toContain('width="320" height="240" loading');
    expect(await img({ unit: 'px', value: 160.4 })).toContain('width="160" height="120" loading');
    expect(await img({ unit: '%', value: 50 })).toContain('width="640" height="480" style="width:50%" loading');
    for (const odd of [0, -5, 'wide', { unit: 'em', value: 3 }, { unit: '%', value: Number.NaN }])
      expect(await img(odd)).toContain('width="640" height="480" loading');
  });

  it('shows conditional blocks only when the condition holds; never shows conflicts; shows unknown blocks as text', async () => {
    const ctx = context();
    const out = await render(
      [
        {
          object: 'block',
          type: 'if',
          data: { expression: 'visitor.claims.unsigned.beta' },
          nodes: [p(text('For beta testers'))],
        },
        {
          object: 'block',
          type: 'if',
          data: { expression: 'visitor.claims.plan == "gold"' },
          nodes: [p(text('Gold only'))],
        },
        { object: 'block', type: 'if', data: { expression: 'visitor.claims.(' }, nodes: [p(text('Broken'))] },
        {
          object: 'block',
          type: 'conflict',
          nodes: [{ object: 'block', type: 'conflict-side', data: { title: 'main' }, nodes: [p(text('Side A'))] }],
        },
        { object: 'block', type: 'future-widget', nodes: [p(text('Kept <as> text'))] },
        { object: 'block', type: 'embed', data: { url: 'https://video.test/v/1' } },
        { object: 'block', type: 'math', data: { formula: '\\frac{a}{b}' } },
      ],
      ctx,
    );
    expect(out).toContain('For beta testers');
    expect(out).not.toContain('Gold only');
    expect(out).not.toContain('Broken');
    expect(out).not.toContain('Side A');
    expect(out).toContain('<div class="unknown-block"><p>Kept &lt;as&gt; text</p></div>');
    expect(ctx.unknown).toEqual(['block:conflict', 'block:future-widget']);
    expect(out).toContain(
      '<a href="https://video.test/v/1" rel="noopener nofollow"><span class="embed-host">video.test</span>',
    );
    expect(out).not.toMatch(/<iframe/);
    expect(out).toContain('<div class="math"><span class="katex-display">');
  });

  it('shows HTML blocks as sanitised HTML, their references resolved, never as text', async () => {
    const ctx = context();
    const out = await render(
      [
        {
          object: 'block',
          type: 'html',
          data: {
            html:
              '<p align="center"><strong>Hi</strong> <a href="/pages/p2">setup</a> <img src="gitbook-file:f1" alt="Shot">' +
              '<img src="https://evil.test/x.png" alt="Far"><script>alert(1)</script>' +
              '<a href="javascript:alert(1)" onclick="x()">bad</a></p>' +
              '<table><thead><tr><th width="160">Version</th></tr></thead><tbody><tr><td>2.0</td></tr></tbody></table>',
          },
          isVoid: true,
        },
      ],
      ctx,
    );
    expect(out).toContain(
      '<div class="html-block"><p align="center"><strong>Hi</strong> <a href="/sites/docs/setup">setup</a>',
    );
    expect(out).toContain('<img src="/v1/downloads/tok" alt="Shot" loading="lazy" decoding="async">');
    expect(out).toContain('<a href="https://evil.test/x.png" rel="noopener nofollow">Far</a>');
    expect(out).toContain('<th width="160">Version</th>');
    expect(out).not.toMatch(/<script|onclick|javascript:|&lt;p/);
  });

  it("renders GitBook's HTML grid (widths, hidden header, number column) and its action buttons, never as text", async () => {
    const document = markdownToDocument(
      '<table data-header-hidden><thead><tr><th width="160">Version</th><th data-type="number">Size</th></tr></thead>' +
        '<tbody><tr><td><strong>2.0</strong></td><td>3</td></tr></tbody></table>\n\n' +
        '<p align="center"><button type="button" class="button primary" data-action="ask">Ask the docs</button></p>\n',
    );
    const out = await render(document.nodes as DocNode[]);
    expect(out).toContain('<colgroup><col style="width:160px"><col></colgroup>');
    expect(out).not.toContain('<thead>');
    expect(out).toContain('<strong>2.0</strong>');
    expect(out).toMatch(/<td class="align-left">3<\/td>/);
    expect(out).toContain('<span class="button">Ask the docs</span>');
    expect(out).not.toContain('&lt;');
  });

  it('renders image, files and content-ref cells: the image, links to the file and the page', async () => {
    const document = markdownToDocument(
      '<table><thead><tr><th>Name</th><th data-type="image">Logo</th><th data-type="files">Files</th>' +
        '<th data-type="content-ref">Page</th><th data-type="select">Type</th></tr></thead><tbody><tr><td>A</td>' +
        '<td><a href="gitbook-file:f1">gitbook-file:f1</a></td><td><a href="gitbook-file:f1">gitbook-file:f1</a></td>' +
        '<td><a href="gitbook-page:p2">gitbook-page:p2</a></td><td></td></tr></tbody></table>\n',
    );
    expect(document.nodes[0]!.type).toBe('table');
    const out = await render(document.nodes as DocNode[]);
    expect(out).toContain(
      '<td class="align-left"><img class="cell-image" src="/v1/downloads/tok" alt="" width="640" height="480" loading="lazy" decoding="async"></td>',
    );
    expect(out).toContain('<td class="align-left"><a href="/v1/downloads/tok">shot.png</a></td>');
    expect(out).toContain('<td class="align-left"><a href="/sites/docs/setup">Setup</a></td>');
  });

  it("renders GitBook's cards as a list of cards: covers for light and dark, each card one link", async () => {
    const dark: RevisionFile = { ...file, id: 'f2', name: 'dark.png', downloadURL: '/v1/downloads/dark' };
    const ctx = context({ files: new Map([file, dark].map((f) => [f.id, f])) });
    // as GitBook's Git Sync writes it (its documentation's example): text columns, hidden target and covers
    const document = markdownToDocument(
      '<table data-view="cards"><thead><tr><th></th><th>Note</th>' +
        '<th data-hidden data-card-target data-type="content-ref"></th>' +
        '<th data-hidden data-card-cover data-type="files"></th>' +
        '<th data-hidden data-card-cover-dark data-type="files"></th></tr></thead><tbody>' +
        '<tr><td><strong>Set up</strong></td><td>Read <a href="https://example.com/a">this</a> &#x3C;first></td>' +
        '<td><a href="gitbook-page:p2">gitbook-page:p2</a></td><td><a href="gitbook-file:f1">f1</a></td>' +
        '<td><a href="gitbook-file:f2">f2</a></td></tr>' +
        '<tr><td><strong>Elsewhere</strong></td><td></td><td><a href="https://example.com/x?a=1&#x26;b=2">x</a></td>' +
        '<td></td><td></td></tr>' +
        '<tr><td><strong>No target</strong></td><td>See <a href="https://example.com/b">b</a></td><td></td>' +
        '<td><a href="gitbook-file:f1">f1</a></td><td></td></tr>' +
        '</tbody></table>\n',
    );
    expect(document.nodes[0]!.type).toBe('table');
    const out = await render(document.nodes as DocNode[], ctx);
    expect(out).not.toContain('<table');
    const cards = out.match(/<li>.*?<\/li>/g) ?? [];
    expect(cards).toHaveLength(3);
    // the whole card is the link to the page; the link in its text is text (a link holds no other link)
    expect(cards[0]).toBe(
      '<li><a class="card" href="/sites/docs/setup"><picture>' +
        '<source srcset="/v1/downloads/dark" media="(prefers-color-scheme: dark)">' +
        '<img class="card-cover" src="/v1/downloads/tok" alt="" width="640" height="480" loading="lazy" decoding="async">' +
        '</picture><div class="card-body"><div class="card-field"><strong>Set up</strong></div>' +
        '<div class="card-field"><div class="card-field-title">Note</div>Read this &lt;first&gt;</div></div></a></li>',
    );
    // another origin: the card links there with rel; no cover, no empty field
    expect(cards[1]).toBe(
      '<li><a class="card" href="https://example.com/x?a=1&amp;b=2" rel="noopener nofollow"><div class="card-body">' +
        '<div class="card-field"><strong>Elsewhere</strong></div></div></a></li>',
    );
    // no target: not a link, its text's links stay links; a cover without a dark one is a plain image
    expect(cards[2]).toContain('<li><div class="card"><img class="card-cover" src="/v1/downloads/tok" alt=""');
    expect(cards[2]).toContain('See <a href="https://example.com/b" rel="noopener nofollow">b</a>');
    expect(out).toMatch(/^<ul class="cards cards-medium">/);
  });

  it('renders large cards with their column titles hidden, a title escaped', async () => {
    const document = markdownToDocument(
      '<table data-view="cards" data-card-size="large" data-column-title-hidden><thead><tr><th>&#x3C;b>Name</th>' +
        '</tr></thead><tbody><tr><td>&#x3C;script>alert(1)&#x3C;/script></td></tr></tbody></table>\n',
    );
    const out = await render(document.nodes as DocNode[]);
    expect(out).toBe(
      '<ul class="cards cards-large"><li><div class="card"><div class="card-body">' +
        '<div class="card-field">&lt;script&gt;alert(1)&lt;/script&gt;</div></div></div></li></ul>',
    );
  });

  it("links GitBook's search and ask buttons to where the context says (the site's search page), without a script", async () => {
    const document = markdownToDocument(
      '<button type="button" class="button primary" data-action="ask" data-query="How &#x26; &#x22;why&#x22;?">Ask</button> ' +
        '<button type="button" class="button secondary" data-action="search">Find</button> ' +
        '<button type="button" class="button primary" data-action="select" data-slug="linux">Linux</button>\n',
    );
    const ctx = context({
      actionHref: ({ action, query }) =>
        action === 'select' ? null : `/sites/docs/~search${query ? `?q=${encodeURIComponent(query)}` : ''}`,
    });
    const out = await render(document.nodes as DocNode[], ctx);
    expect(out).toContain('<a class="button" href="/sites/docs/~search?q=How%20%26%20%22why%22%3F">Ask</a>');
    expect(out).toContain('<a class="button button-secondary" href="/sites/docs/~search">Find</a>');
    expect(out).toContain('<span class="button">Linux</span>');
  });

  it("draws a button's kind, size and icon (the icon hidden from screen readers: the label names it)", async () => {
    const button = (data: Record<string, unknown>): DocNode => ({
      object: 'inline',
      type: 'button',
      isVoid: true,
      data: { ref: { kind: 'url', url: 'https://example.com/' }, ...data },
    });
    const iconUrl = (name: string) => (name === 'rocket' ? `/_quire/icons/${name}.svg` : null);
    const nodes = [
      p(button({ label: 'Go', kind: 'primary', size: 'large', icon: 'rocket' })),
      p(button({ label: '<b>', kind: 'secondary', size: 'huge', icon: 'nope' })),
    ];
    expect(await render(nodes, context({ iconUrl }))).toBe(
      '<p><a class="button button-large" href="https://example.com/">' +
        '<span class="inline-icon" aria-hidden="true" style="--icon:url(/_quire/icons/rocket.svg)"></span>Go</a></p>' +
        '<p><a class="button button-secondary" href="https://example.com/">&lt;b&gt;</a></p>',
    );
  });

  it('shows a dark-mode variant, line numbers, aligned paragraphs and footnotes after the document', async () => {
    const ctx = context({
      files: new Map([
        [file.id, file],
        ['f2', { ...file, id: 'f2', name: 'dark.png', downloadURL: '/v1/downloads/dark' }],
      ]),
    });
    const out = await render(
      [
        {
          object: 'block',
          type: 'images',
          nodes: [
            {
              object: 'block',
              type: 'image',
              data: { ref: { kind: 'file', file: 'f1' }, refDark: { kind: 'file', file: 'f2' } },
              fragments: [],
            },
          ],
        },
        {
          object: 'block',
          type: 'code',
          data: { lineNumbers: true },
          nodes: [{ object: 'block', type: 'code-line', nodes: [text('one')] }],
        },
        { object: 'block', type: 'paragraph', data: { align: 'center' }, nodes: [text('Mid')] },
        {
          object: 'block',
          type: 'prompt',
          data: { description: 'Summarise' },
          nodes: [
            { object: 'block', type: 'code', nodes: [{ object: 'block', type: 'code-line', nodes: [text('Do it')] }] },
          ],
        },
        { object: 'block', type: 'embed', data: { url: 'https://video.test/v/2', caption: 'A talk' } },
        {
          object: 'block',
          type: 'paragraph',
          nodes: [
            text('A claim'),
            {
              object: 'inline',
              type: 'annotation',
              nodes: [text('')],
              fragments: [{ object: 'fragment', fragment: 'annotation-body', nodes: [p(text('The source.'))] }],
            },
            text('.'),
          ],
        },
      ],
      ctx,
    );
    expect(out).toContain(
      '<picture><source srcset="/v1/downloads/dark" media="(prefers-color-scheme: dark)"><img class="" src="/v1/downloads/tok"',
    );
    expect(out).toContain(
      '<div class="code line-numbers"><pre class="shiki plain" tabindex="0"><code><span class="line">one</span>',
    );
    expect(out).toContain('<p style="text-align:center">Mid</p>');
    expect(out).toContain('<div class="prompt"><p class="prompt-description">Summarise</p><div class="code">');
    expect(out).toContain('<figcaption>A talk</figcaption></figure>');
    expect(out).toContain(
      'A claim<sup class="footnote-ref"><a href="#fn-1" id="fnref-1" aria-label="Note 1">1</a></sup>.',
    );
    expect(out).not.toContain('The source.');
    expect(footnotesOf(ctx).value).toBe(
      '<section class="footnotes" role="doc-endnotes"><ol><li id="fn-1">The source. <a href="#fnref-1" class="footnote-back" aria-label="Back to the text">↩</a></li></ol></section>',
    );
  });
});
