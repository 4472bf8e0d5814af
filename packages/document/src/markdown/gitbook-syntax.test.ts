import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSONDocumentSchema, type DocumentBlockTopLevel, type DocumentInline } from '@quire/contracts';
import { documentToMarkdown, markdownToDocument, normalizeMarkdown } from '../index.ts';
import { isTagLine, markdownParser } from './markdown-syntax.ts';
import { doc, leaf, MARKDOWN_NODE_TYPES, p, para, text, typesOf } from './test-builders.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

describe('a corpus of GitBook-format pages', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.md'));

  it.each(files)('%s round-trips with no diff and validates', (name) => {
    const markdown = fixture(name);
    expect(normalizeMarkdown(markdown)).toBe(markdown);
    const document = markdownToDocument(markdown);
    expect(JSONDocumentSchema.parse(document)).toEqual(document);
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
  });

  it('covers every block, inline and mark', () => {
    const types = typesOf(markdownToDocument(fixture('every-block.md')));
    const expected = [
      ...MARKDOWN_NODE_TYPES,
      ...['drawing', 'openapi-schemas', 'openapi-webhook', 'swagger', 'integration', 'conflict', 'conflict-side'],
      'annotation-body',
    ];
    expect(expected.filter((t) => !types.has(t))).toEqual([]);
    expect(markdownToDocument(fixture('every-block.md')).data.frontMatter).toEqual({
      description: 'A page holding every block GitBook has',
      icon: 'book-open',
      hidden: true,
      layout: { width: 'wide', tableOfContents: { visible: true } },
    });
  });

  it("reads GitBook's own export forms, stable after one normalisation", () => {
    const markdown = fixture('gitbook-export.txt');
    const once = normalizeMarkdown(markdown);
    expect(normalizeMarkdown(once)).toBe(once);
    const types = typesOf(markdownToDocument(markdown));
    for (const t of [
      'openapi-operation',
      'swagger',
      'tabs',
      'expandable',
      'hint',
      'content-ref',
      'file',
      'images',
      'embed',
    ])
      expect(types).toContain(t);
    expect(once).not.toContain('\\{%');
    expect(once).not.toContain('\\<');
  });
});

describe("GitBook's blocks", () => {
  const one = (markdown: string) => {
    const document = JSONDocumentSchema.parse(markdownToDocument(markdown));
    expect(document.nodes).toHaveLength(1);
    return document.nodes[0];
  };

  it('reads tabs, with what a tab may not hold lifted out between two tabs blocks', () => {
    expect(
      one('{% tabs %}\n{% tab title="A" %}\na\n{% endtab %}\n{% tab title="B" %}\nb\n{% endtab %}\n{% endtabs %}'),
    ).toEqual({
      object: 'block',
      type: 'tabs',
      data: {},
      nodes: [
        { object: 'block', type: 'tabs-item', data: { title: 'A' }, nodes: [para('a')] },
        { object: 'block', type: 'tabs-item', data: { title: 'B' }, nodes: [para('b')] },
      ],
    });
    const lifted = markdownToDocument(
      '{% tabs %}\n{% tab title="A" %}\na\n\n| t |\n|---|\n| 1 |\n\nb\n{% endtab %}\n{% endtabs %}',
    );
    expect(lifted.nodes.map((n) => n.type)).toEqual(['tabs', 'table', 'tabs']);
  });

  it("keeps an OpenAPI block's spec link and closing tag, as GitBook's Git Sync writes them", () => {
    const gitbook = [
      '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
      '[OpenAPI petstore](https://petstore3.swagger.io/api/v3/openapi.json)',
      '{% endopenapi-operation %}',
    ].join('\n');
    const once = normalizeMarkdown(`${gitbook}\n`);
    expect(once).toBe(
      [
        '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
        '[OpenAPI petstore](gitbook-openapi:petstore)',
        '{% endopenapi-operation %}\n',
      ].join('\n'),
    );
    expect(normalizeMarkdown(once)).toBe(once);
    expect(markdownToDocument(gitbook).nodes).toEqual([
      {
        object: 'block',
        type: 'openapi-operation',
        data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'get' },
        isVoid: true,
      },
    ]);
    for (const [open, close] of [
      ['{% openapi-schemas spec="petstore" schemas="Pet,Tag" %}', '{% endopenapi-schemas %}'],
      ['{% openapi-webhook spec="petstore" name="newPet" method="post" %}', '{% endopenapi-webhook %}'],
    ]) {
      const written = `${open}\n[OpenAPI petstore](gitbook-openapi:petstore)\n${close}\n`;
      expect(normalizeMarkdown(written)).toBe(written);
      expect(normalizeMarkdown(`${open}\n`)).toBe(written);
    }
    const swagger = [
      '{% swagger src="https://petstore.swagger.io/v2/swagger.json" path="/pet" method="get" %}',
      '[https://petstore.swagger.io/v2/swagger.json](https://petstore.swagger.io/v2/swagger.json)',
      '{% endswagger %}\n',
    ].join('\n');
    expect(normalizeMarkdown(swagger)).toBe(swagger);
    expect(markdownToDocument(swagger).nodes[0]?.type).toBe('swagger');
    // more than the spec's link between the tags: the tags stay text, nothing is dropped
    const more =
      '{% openapi-operation spec="petstore" path="/pets" method="get" %}\nSee the spec.\n\n[x](y)\n' +
      '{% endopenapi-operation %}\n';
    const kept = normalizeMarkdown(more);
    expect(kept).toBe(more.replace('%}\n', '%}\n\n').replace('(y)\n', '(y)\n\n'));
    expect(normalizeMarkdown(kept)).toBe(kept);
  });

  it("writes a captioned image as GitBook's <figure>, and reads it back", () => {
    const figure =
      '<figure><img src="https://example.com/a.png" alt="A &#x26; B"><figcaption><p>The &#x3C;caption></p>' +
      '</figcaption></figure>';
    const image = one(figure);
    expect(image).toMatchObject({ type: 'images', nodes: [{ type: 'image', data: { alt: 'A & B' } }] });
    const written = normalizeMarkdown(figure);
    expect(written).toMatch(/^<figure><img src="https:\/\/example\.com\/a\.png" alt="A &[^"]+ B"><figcaption><p>/);
    expect(markdownToDocument(written)).toEqual(markdownToDocument(figure));
    expect(normalizeMarkdown('![A](https://example.com/a.png "Caption")')).toBe(
      '<figure><img src="https://example.com/a.png" alt="A"><figcaption><p>Caption</p></figcaption></figure>\n',
    );
    expect(normalizeMarkdown('![A](https://example.com/a.png)')).toBe('![A](https://example.com/a.png)\n');
  });

  it('reads code options from the tag around the fence', () => {
    expect(
      one('{% code title="a.js" overflow="wrap" lineNumbers="true" %}\n```js\nx\n```\n{% endcode %}'),
    ).toMatchObject({
      type: 'code',
      data: { syntax: 'js', title: 'a.js', overflow: 'wrap', lineNumbers: true },
    });
  });

  it('reads <details> as an expandable block', () => {
    expect(one('<details open>\n\n<summary>More &amp; more</summary>\n\nBody\n\n</details>')).toEqual({
      object: 'block',
      type: 'expandable',
      data: { defaultExpanded: true },
      isVoid: true,
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [para('More & more')] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [para('Body')] },
      ],
    });
  });

  it('reads a closing tag that ends a list item or a table, as GitBook writes them', () => {
    expect(one('{% hint style="info" %}\n- item\n{% endhint %}')).toMatchObject({
      type: 'hint',
      nodes: [{ type: 'list-unordered' }],
    });
    expect(one('{% hint style="info" %}\n| a |\n|---|\n| 1 |\n{% endhint %}')).toMatchObject({
      type: 'hint',
      nodes: [{ type: 'table' }],
    });
  });

  it('reads marks written as HTML, and colors', () => {
    const color = { object: 'mark', type: 'color', data: { text: 'red', background: '$info' } } as const;
    expect(markdownToDocument('<mark style="color:red;background-color:$info;">x</mark> <sup>2</sup>').nodes).toEqual([
      p(text({ object: 'leaf', text: 'x', marks: [color] }, ' ', leaf('2', 'superscript'))),
    ]);
  });

  it('reads and writes cards (a table in the cards view)', () => {
    const cards = one(
      '<table data-view="cards" data-card-size="large"><thead><tr><th>T</th><th data-hidden data-card-target data-type="content-ref">L</th>' +
        '</tr></thead><tbody><tr><td><strong>A</strong> b</td><td><a href="gitbook-page:p1">p1</a></td></tr></tbody></table>',
    );
    expect(cards).toMatchObject({
      type: 'table',
      data: {
        view: { type: 'cards', cardSize: 'large', columns: ['c1'], targetDefinition: 'c2' },
        records: { r1: { values: { c1: 'r1-c1', c2: { kind: 'page', page: 'p1' } } } },
        definition: { c2: { type: 'content-ref', title: 'L' } },
      },
      fragments: [{ fragment: 'r1-c1', nodes: [p(text(leaf('A', 'bold'), ' b'))] }],
    });
    const document = doc(cards as DocumentBlockTopLevel);
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
  });

  it("reads GitBook's grid tables written as HTML (widths, hidden header, typed columns) and writes them back", () => {
    const html =
      '<table data-header-hidden><thead><tr><th width="160">Version</th><th align="center">Change</th>' +
      '<th data-type="number">Size</th><th data-hidden>Note</th></tr></thead><tbody><tr><td>2.0</td>' +
      '<td align="center"><em>New</em> engine</td><td>3</td><td>x</td></tr></tbody></table>';
    const table = one(html);
    expect(table).toMatchObject({
      type: 'table',
      data: {
        view: { type: 'grid', columns: ['c1', 'c2', 'c3'], columnWidths: { c1: 160 }, hideHeader: true },
        definition: {
          c1: { type: 'text', textAlignment: 'left', title: 'Version' },
          c2: { type: 'text', textAlignment: 'center' },
          c3: { type: 'number', title: 'Size' },
          c4: { type: 'text', title: 'Note' },
        },
        records: { r1: { values: { c1: 'r1-c1', c2: 'r1-c2', c3: 3, c4: 'r1-c4' } } },
      },
    });
    expect(normalizeMarkdown(`${html}\n`)).toBe(`${html}\n`);
    // GitBook's form from the document: a grid that markdown cannot hold is written as that HTML
    expect(documentToMarkdown(doc(table as DocumentBlockTopLevel))).toBe(`${html}\n`);
    // a table HTML that writing back would change (a caption, a select cell with text, other attributes) stays HTML
    for (const kept of [
      '<table><caption>C</caption><thead><tr><th width="10">A</th></tr></thead><tbody></tbody></table>',
      '<table><thead><tr><th data-type="select" data-multiple>A</th></tr></thead><tbody><tr><td>x</td></tr></tbody></table>',
      '<table class="x"><thead><tr><th width="10">A</th></tr></thead><tbody></tbody></table>',
    ]) {
      expect(one(kept)).toMatchObject({ type: 'html', data: { html: kept } });
      expect(normalizeMarkdown(`${kept}\n`)).toBe(`${kept}\n`);
    }
    // a grid markdown holds stays a pipe table
    expect(normalizeMarkdown('| a | b |\n| - | :-: |\n| 1 | 2 |\n')).toBe('| a | b |\n| - | :-: |\n| 1 | 2 |\n');
  });

  it('reads select, users and image columns as GitBook writes them (cells of select and users empty), and back', () => {
    // As in GitBook-synced repositories: a select column's options and cells, a users column's cells are not written
    const grid =
      '<table><thead><tr><th>Param</th><th data-type="select">Type</th><th data-type="checkbox">Required</th>' +
      '<th data-type="users" data-multiple>Owners</th><th data-type="image">Logo</th></tr></thead><tbody>' +
      '<tr><td>url</td><td></td><td>true</td><td></td><td><a href="gitbook-file:f1">gitbook-file:f1</a></td></tr>' +
      '<tr><td>hashtag</td><td></td><td>false</td><td></td><td></td></tr></tbody></table>';
    const table = one(grid);
    expect(table).toMatchObject({
      type: 'table',
      data: {
        view: { type: 'grid', columns: ['c1', 'c2', 'c3', 'c4', 'c5'] },
        definition: {
          c2: { type: 'select', title: 'Type', multiple: false, options: [] },
          c4: { type: 'users', title: 'Owners', multiple: true },
          c5: { type: 'image', title: 'Logo' },
        },
        records: { r1: { values: { c3: true, c5: { kind: 'file', file: 'f1' } } }, r2: { values: { c3: false } } },
      },
    });
    expect(JSONDocumentSchema.safeParse(doc(table as DocumentBlockTopLevel)).success).toBe(true);
    // a file's link text is its URL (Git Sync writes the file's name there, as GitBook, see git-sync.md)
    expect(documentToMarkdown(doc(table as DocumentBlockTopLevel))).toBe(`${grid}\n`);
    expect(normalizeMarkdown(`${grid}\n`)).toBe(`${grid}\n`);
    // cards with a users column and an image cover, as GitBook writes them
    const cards =
      '<table data-view="cards"><thead><tr><th data-type="users" data-multiple></th><th></th>' +
      '<th data-hidden data-card-cover data-type="image">Cover image</th></tr></thead><tbody><tr><td></td>' +
      '<td><strong>Renato</strong></td><td><a href="gitbook-file:f2">gitbook-file:f2</a></td></tr></tbody></table>';
    const card = one(cards);
    expect(card).toMatchObject({
      data: {
        view: { type: 'cards', coverDefinition: 'c3', columns: ['c1', 'c2'] },
        definition: { c1: { type: 'users', multiple: true }, c3: { type: 'image', title: 'Cover image' } },
        records: { r1: { values: { c3: { kind: 'file', file: 'f2' } } } },
      },
    });
    expect(documentToMarkdown(doc(card as DocumentBlockTopLevel))).toBe(`${cards}\n`);
    // GitBook's own documentation: a cover for dark mode (`data-card-cover-dark`)
    const dark =
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-cover data-type="image">Cover image</th>' +
      '<th data-hidden data-card-cover-dark data-type="image">Cover image (dark)</th></tr></thead><tbody><tr>' +
      '<td><strong>Creating content</strong></td><td><a href="gitbook-file:f1">gitbook-file:f1</a></td>' +
      '<td><a href="https://files.example/c.svg?alt=media&#x26;token=1">https://files.example/c.svg?alt=media&#x26;token=1</a></td></tr></tbody></table>';
    const darkCard = one(dark);
    expect(darkCard).toMatchObject({
      data: {
        view: { coverDefinition: 'c2', coverDefinitionDark: 'c3' },
        records: { r1: { values: { c3: { kind: 'url', url: 'https://files.example/c.svg?alt=media&token=1' } } } },
      },
    });
    expect(documentToMarkdown(doc(darkCard as DocumentBlockTopLevel))).toBe(`${dark}\n`);
  });

  it('writes a select column with options or values, or users set, as a pipe table of plain values (as before)', () => {
    const table = one(
      '<table><thead><tr><th>A</th><th data-type="select">S</th></tr></thead><tbody><tr><td>x</td><td></td></tr></tbody></table>',
    ) as Extract<DocumentBlockTopLevel, { type: 'table' }>;
    const c2 = table.data.definition.c2!;
    if (c2.type !== 'select') throw new Error('not a select column');
    c2.options = [{ value: 'o1', label: 'One', color: 'blue' }];
    table.data.records.r1!.values.c2 = ['o1'];
    expect(documentToMarkdown(doc(table))).toMatch(/^\| A \| S \|\n/);
  });

  it('reads GitBook\'s buttons: a link (<a class="button">) and an action (<button data-action>)', () => {
    const markdown =
      '<button type="button" class="button primary" data-action="ask" data-query="How &#x26; why?" data-icon="gitbook-assistant">Ask…</button> ' +
      '<button type="button" class="button secondary small" data-action="search">Find</button> ' +
      '<button type="button" class="button primary" data-action="select" data-slug="linux">Linux</button>\n';
    const [paragraph] = markdownToDocument(markdown).nodes;
    const buttons = (paragraph?.type === 'paragraph' ? paragraph.nodes : []).filter(
      (n): n is Extract<DocumentInline, { type: 'button' }> => n.object === 'inline' && n.type === 'button',
    );
    expect(buttons.map((b) => b.data)).toEqual([
      { label: 'Ask…', kind: 'primary', icon: 'gitbook-assistant', action: { action: 'ask', query: 'How & why?' } },
      { label: 'Find', kind: 'secondary', size: 'small', action: { action: 'search' } },
      { label: 'Linux', kind: 'primary', action: { action: 'select', slug: 'linux' } },
    ]);
    const written = documentToMarkdown(markdownToDocument(markdown));
    // GitBook's character references as it writes them (`&#x26;`), byte for byte
    expect(written).toBe(markdown);
    expect(normalizeMarkdown(written)).toBe(written);
    // in an aligned paragraph, as GitBook's documentation has it
    const centered =
      '<p align="center"><button type="button" class="button primary" data-action="ask" data-icon="gitbook-assistant">Ask a question...</button></p>\n';
    expect(markdownToDocument(centered).nodes[0]).toMatchObject({
      type: 'paragraph',
      data: { align: 'center' },
      nodes: [{ object: 'text' }, { type: 'button', data: { action: { action: 'ask' } } }, { object: 'text' }],
    });
    expect(normalizeMarkdown(centered)).toBe(centered);
    // a <button> that is not GitBook's stays text
    expect(normalizeMarkdown('<button onclick="x()">Go</button>\n')).toBe('<button onclick="x()">Go</button>\n');
  });

  it("reads the character references of GitBook's HTML into text and writes them back as GitBook does", () => {
    // As GitBook's Git Sync writes them (hast's serializer): `&` as `&#x26;`, `<` as `&#x3C;` in text and
    // attributes, `"` as `&#x22;` in attributes, `>` as it is.
    const markdown = [
      '<table><thead><tr><th width="200">Operator</th><th>Meaning</th></tr></thead><tbody><tr><td>&#x3C;</td><td>Less than (<code>$a &#x3C; 42</code>)</td></tr><tr><td>></td><td>R&#x26;D <strong>&#x26;</strong> more</td></tr></tbody></table>',
      '<h2 align="center">Terms &#x26; conditions &#x3C;draft></h2>',
      '<figure><img src=".gitbook/assets/a.png" alt="List &#x26; view &#x22;all&#x22;"><figcaption><p>Q&#x26;A &#x3C;beta></p></figcaption></figure>',
      '<details>\n\n<summary>Ports &#x26; protocols</summary>\n\nOpen 80.\n\n</details>',
      '<p align="center"><button type="button" class="button primary" data-action="search" data-query="a&#x26;b &#x22;c&#x22;">Find &#x3C;x></button></p>',
    ].join('\n\n');
    const source = `${markdown}\n`;
    const doc = markdownToDocument(source);
    expect(doc.nodes.map((n) => n.type)).toEqual(['table', 'heading-2', 'images', 'expandable', 'paragraph']);
    const text = JSON.stringify(doc);
    for (const plain of ['R&D ', '"$a < 42"', 'Terms & conditions <draft>', 'List & view \\"all\\"', 'Q&A <beta>'])
      expect(text).toContain(plain);
    expect(text).toContain('Ports & protocols');
    expect(text).toContain('"query":"a&b \\"c\\""');
    expect(text).not.toMatch(/&#x|&amp;|&lt;/);
    expect(documentToMarkdown(doc)).toBe(source);
    expect(normalizeMarkdown(source)).toBe(source);
  });

  it('reads HTML written with named or decimal references (an older writer) and writes it as GitBook does', () => {
    const older =
      '<table><thead><tr><th width="120">A &amp; B</th></tr></thead><tbody><tr><td>&lt;x&gt; &#38; &quot;y&quot;</td></tr></tbody></table>\n\n' +
      '<p align="right">Fish &amp; chips</p>\n';
    const doc = markdownToDocument(older);
    expect(doc.nodes.map((n) => n.type)).toEqual(['table', 'paragraph']);
    expect(JSON.stringify(doc)).toContain('<x> & \\"y\\"');
    expect(documentToMarkdown(doc)).toBe(
      '<table><thead><tr><th width="120">A &#x26; B</th></tr></thead><tbody><tr><td>&#x3C;x> &#x26; "y"</td></tr></tbody></table>\n\n' +
        '<p align="right">Fish &#x26; chips</p>\n',
    );
  });

  it('reads the {% openapi src %} block (the swagger block under its newer tag) and writes it back so', () => {
    const markdown = [
      '{% openapi src="https://petstore3.swagger.io/api/v3/openapi.json" path="/pet" method="put" %}',
      '[https://petstore3.swagger.io/api/v3/openapi.json](https://petstore3.swagger.io/api/v3/openapi.json)',
      '{% endopenapi %}\n',
    ].join('\n');
    expect(markdownToDocument(markdown).nodes).toEqual([
      {
        object: 'block',
        type: 'swagger',
        data: {
          ref: { kind: 'url', url: 'https://petstore3.swagger.io/api/v3/openapi.json' },
          path: '/pet',
          method: 'put',
          tag: 'openapi',
        },
        isVoid: true,
      },
    ]);
    expect(normalizeMarkdown(markdown)).toBe(markdown);
    const empty = '{% openapi src="gitbook-file:f1" path="/pet" method="get" %}\n{% endopenapi %}\n';
    expect(normalizeMarkdown(empty)).toBe(
      '{% openapi src="gitbook-file:f1" path="/pet" method="get" %}\n[gitbook-file:f1](gitbook-file:f1)\n{% endopenapi %}\n',
    );
  });

  it('keeps unknown tags, unbalanced tags and unknown HTML byte for byte', () => {
    for (const markdown of [
      '{% foo bar="1" %}\n',
      '{% hint style="info" %}\n\nno end\n',
      'text\n\n{% endtabs %}\n',
      '<div class="x">\nhello\n</div>\n',
      'a <span>b</span> c\n',
      '{% tabs %}\n\nloose\n\n{% endtabs %}\n',
      '{% foo %}\n\nx\n\n{% endfoo %}\n',
    ]) {
      expect(normalizeMarkdown(markdown)).toBe(markdown);
    }
  });
});

// ── Property: document → markdown → document is the identity ─────────────────────────────────────────

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const inlineArb: fc.Arbitrary<DocumentInline> = fc.oneof(
  words.map(
    (formula): DocumentInline => ({
      object: 'inline',
      type: 'inline-math',
      data: { formula: formula.replace(/ /g, '+') },
      isVoid: true,
    }),
  ),
  word.map(
    (v): DocumentInline => ({
      object: 'inline',
      type: 'expression',
      data: { expression: `space.vars.${v}` },
      isVoid: true,
    }),
  ),
  word.map((icon): DocumentInline => ({ object: 'inline', type: 'icon', data: { icon }, isVoid: true })),
  fc
    .constantFrom('1f389', '1f680', '2705')
    .map((code): DocumentInline => ({ object: 'inline', type: 'emoji', data: { code }, isVoid: true })),
  word.map(
    (page): DocumentInline => ({
      object: 'inline',
      type: 'mention',
      data: { ref: { kind: 'page', page } },
      isVoid: true,
    }),
  ),
  fc.tuple(words, word).map(
    ([label, page]): DocumentInline => ({
      object: 'inline',
      type: 'button',
      data: { label, kind: 'primary', ref: { kind: 'page', page } },
      isVoid: true,
    }),
  ),
);
const MARKS = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript'] as const;
const paragraphArb = fc
  .tuple(
    words,
    fc.option(fc.constantFrom(...MARKS), { nil: undefined }),
    words,
    fc.option(inlineArb, { nil: undefined }),
    words,
  )
  .map(([a, mark, b, inline, c]) => {
    const first = mark ? text(`${a} `, leaf(b, mark), ` ${c}`) : text(`${a} ${b} ${c}`);
    return inline ? p(first, inline, text(` ${c}`)) : p(first);
  });
const paragraphs = fc.array(paragraphArb, { minLength: 1, maxLength: 2 });
const title = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));

/** A void block of `type` (a leaf: its data says all). */
const voidBlock = (type: string, data: object) =>
  ({ object: 'block', type, data, isVoid: true }) as DocumentBlockTopLevel;

const leafBlockArb: fc.Arbitrary<DocumentBlockTopLevel> = fc.oneof(
  paragraphArb,
  words.map((formula) => voidBlock('math', { formula })),
  word.map((u) => voidBlock('embed', { url: `https://x.io/${u}` })),
  word.map((page) => voidBlock('content-ref', { ref: { kind: 'page', page } })),
  fc
    .tuple(word, fc.option(title, { nil: undefined }))
    .map(([file, caption]) =>
      voidBlock('file', caption ? { ref: { kind: 'file', file }, caption } : { ref: { kind: 'file', file } }),
    ),
  word.map((file) => voidBlock('drawing', { ref: { kind: 'file', file } })),
  word.map((id) => voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: id } })),
  fc
    .tuple(word, word)
    .map(([spec, path]) =>
      voidBlock('openapi-operation', { ref: { kind: 'openapi', spec }, path: `/${path}`, method: 'get' }),
    ),
  fc
    .tuple(
      fc.option(word, { nil: undefined }),
      fc.option(title, { nil: undefined }),
      fc.boolean(),
      fc.array(words, { minLength: 1, maxLength: 3 }),
    )
    .map(
      ([syntax, t, lineNumbers, lines]): DocumentBlockTopLevel => ({
        object: 'block',
        type: 'code',
        data: {
          ...(syntax ? { syntax } : {}),
          ...(t ? { title: t } : {}),
          ...(lineNumbers ? { lineNumbers, overflow: 'wrap' as const } : {}),
        },
        nodes: lines.map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] })),
      }),
    ),
);

/** GitBook's forms the Git Sync writes in HTML or with captions: HTML blocks, anchors, figures, prompts, embeds. */
const gitbookLeafArb: fc.Arbitrary<DocumentBlockTopLevel> = fc.oneof(
  fc
    .tuple(fc.constantFrom('<div align="center"><strong>', '<div class="x">', '<table><tr><td>'), words)
    .map(([open, w]) => {
      const name = /^<(\w+)/.exec(open)![1]!;
      const close =
        name === 'table' ? '</td></tr></table>' : open.includes('strong') ? '</strong></div>' : `</${name}>`;
      return voidBlock('html', { html: `${open}${w}${close}` });
    }),
  fc.tuple(fc.constantFrom('center', 'end' as const), words, fc.constantFrom(...MARKS), words).map(
    ([align, a, mark, b]): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'paragraph',
      data: { align },
      nodes: [
        {
          object: 'text',
          leaves: [
            { object: 'leaf', text: `${a} `, marks: [] },
            { object: 'leaf', text: b, marks: [{ object: 'mark', type: mark }] },
          ],
        },
      ],
    }),
  ),
  fc.tuple(fc.constantFrom('heading-1', 'heading-2', 'heading-3' as const), word, words).map(
    ([type, id, t]): DocumentBlockTopLevel => ({
      object: 'block',
      type,
      data: { id },
      meta: { id },
      nodes: [text(t)],
    }),
  ),
  fc
    .tuple(
      word,
      fc.option(word, { nil: undefined }),
      fc.option(words, { nil: undefined }),
      fc.option(fc.integer({ min: 10, max: 900 }), { nil: undefined }),
      words,
      fc.boolean(),
    )
    .map(
      ([file, dark, alt, width, caption, framed]): DocumentBlockTopLevel => ({
        object: 'block',
        type: 'images',
        data: framed ? { align: 'center', withFrame: true } : {},
        isVoid: false,
        nodes: [
          {
            object: 'block',
            type: 'image',
            data: {
              ref: { kind: 'file', file },
              ...(dark ? { refDark: { kind: 'file', file: dark } } : {}),
              ...(alt ? { alt } : {}),
              ...(width ? { width } : {}),
            },
            fragments: [{ object: 'fragment', fragment: 'caption', nodes: [para(caption)] }],
            isVoid: true,
          },
        ],
      }),
    ),
  fc.tuple(word, words).map(([u, caption]) => voidBlock('embed', { url: `https://x.io/${u}`, caption })),
  fc.tuple(words, fc.option(word, { nil: undefined }), words).map(
    ([description, icon, line]): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'prompt',
      data: { description, ...(icon ? { icon } : {}) },
      nodes: [
        {
          object: 'block',
          type: 'code',
          data: { syntax: 'markdown' },
          nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] }],
        },
      ],
    }),
  ),
);

const containerArb: fc.Arbitrary<DocumentBlockTopLevel> = fc.oneof(
  fc.array(fc.tuple(fc.constantFrom('2026-01-01', '2025-12-31'), paragraphs), { minLength: 1, maxLength: 3 }).map(
    (updates): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'updates',
      data: { format: 'full' },
      nodes: updates.map(([date, nodes]) => ({ object: 'block', type: 'update', data: { date }, nodes })),
    }),
  ),
  fc.tuple(paragraphs, title, paragraphs).map(
    ([before, t, inTab]): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'stepper',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'stepper-step',
          data: {},
          nodes: [
            ...before,
            {
              object: 'block',
              type: 'tabs',
              data: {},
              nodes: [{ object: 'block', type: 'tabs-item', data: { title: t }, nodes: inTab }],
            },
          ],
        },
      ],
    }),
  ),
  fc.tuple(fc.constantFrom('info', 'warning', 'danger', 'success' as const), paragraphs).map(
    ([style, nodes]): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'hint',
      data: { style },
      nodes,
    }),
  ),
  fc.array(fc.tuple(title, paragraphs), { minLength: 1, maxLength: 3 }).map(
    (tabs): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'tabs',
      data: {},
      nodes: tabs.map(([t, nodes]) => ({ object: 'block', type: 'tabs-item', data: { title: t }, nodes })),
    }),
  ),
  fc.array(paragraphs, { minLength: 1, maxLength: 3 }).map(
    (steps): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'stepper',
      data: {},
      nodes: steps.map((nodes) => ({ object: 'block', type: 'stepper-step', data: {}, nodes })),
    }),
  ),
  fc.array(paragraphs, { minLength: 1, maxLength: 3 }).map(
    (columns): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'columns',
      data: {},
      isVoid: false,
      nodes: columns.map((nodes) => ({
        object: 'block',
        type: 'column',
        data: { width: { unit: '%', value: 50 } },
        nodes,
      })),
    }),
  ),
  fc.tuple(title, paragraphs, fc.boolean()).map(
    ([t, nodes, open]): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'expandable',
      data: open ? { defaultExpanded: true } : {},
      isVoid: true,
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [para(t)] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes },
      ],
    }),
  ),
  fc.tuple(word, paragraphs).map(
    ([v, nodes]): DocumentBlockTopLevel => ({
      object: 'block',
      type: 'if',
      data: { expression: `visitor.claims.${v}` },
      nodes,
    }),
  ),
  fc
    .array(
      fc.tuple(
        fc.string({ maxLength: 12 }).filter((s) => !/[\r\n]/.test(s)),
        fc.array(leafBlockArb, { maxLength: 2 }),
      ),
      { minLength: 2, maxLength: 2 },
    )
    .map(
      (sides): DocumentBlockTopLevel => ({
        object: 'block',
        type: 'conflict',
        data: {},
        isVoid: false,
        nodes: sides.map(([t, nodes]) => ({
          object: 'block',
          type: 'conflict-side',
          data: { title: t },
          nodes,
          isVoid: false,
        })),
      }),
    ),
);

describe('round trip of generated GitBook documents', () => {
  it('document → markdown → document is the identity', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(leafBlockArb, gitbookLeafArb, containerArb), { minLength: 1, maxLength: 6 }),
        (nodes) => {
          const document = JSONDocumentSchema.parse(doc(...nodes));
          const markdown = documentToMarkdown(document);
          expect(markdownToDocument(markdown)).toEqual(document);
          expect(normalizeMarkdown(markdown)).toBe(markdown);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});

describe('hostile input', () => {
  // No timing is asserted (a loaded machine makes any bound flaky): a converter quadratic in these inputs would
  // run for hours and fail on the test's timeout; `npm run faults` measures the instance's answers under such input.
  it('converts nested brackets, deep quotes and lists, and thousands of tags into a valid document', () => {
    const n = 3000;
    const inputs = [
      `${'['.repeat(n)}a${']('.repeat(n)}`,
      `${'> '.repeat(2000)}deep`,
      `${'- '.repeat(500)}x`,
      '{% hint style="info" %}\n'.repeat(2000),
      '{% tabs %}\n{% tab title="x" %}\n'.repeat(500),
    ];
    for (const markdown of inputs) {
      const document = markdownToDocument(markdown);
      expect(JSONDocumentSchema.safeParse(document).success).toBe(true);
      const written = documentToMarkdown(document);
      expect(typeof written).toBe('string');
      expect(JSONDocumentSchema.safeParse(markdownToDocument(written)).success).toBe(true);
    }
  }, 120_000);
});

it('scans a tag line exactly as the parser reads one', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[{% a="\\}\n-]{0,12}$/), (line) => {
      const { children } = markdownParser.parse(line);
      const parsed = children.length === 1 && children[0]?.type === 'liquidTag' && children[0].value === line;
      expect(isTagLine(line)).toBe(parsed);
    }),
    { numRuns: 500 },
  );
});

// ── Property: GitBook-syntax markdown → document → markdown is stable after one normalisation ─────────

const LINES = [
  '{% hint style="info" %}',
  '{% hint style="tip" %}',
  '{% endhint %}',
  '{% tabs %}',
  '{% tab title="A \\"q\\"" %}',
  '{% endtab %}',
  '{% endtabs %}',
  '{% stepper %}',
  '{% step %}',
  '{% endstep %}',
  '{% endstepper %}',
  '{% columns %}',
  '{% column width="50%" %}',
  '{% endcolumn %}',
  '{% endcolumns %}',
  '{% code title="x.js" lineNumbers="true" %}',
  '{% endcode %}',
  '{% embed url="https://x.io" %}',
  '{% file src="gitbook-file:f" %}',
  '{% endfile %}',
  '{% content-ref url="a.md" %}',
  '{% endcontent-ref %}',
  '{% include "r1" %}',
  '{% if visitor.a %}',
  '{% endif %}',
  '{% conflict %}',
  '{% conflict-side title="main" %}',
  '{% endconflict-side %}',
  '{% endconflict %}',
  '{% foo %}',
  '{% endfoo %}',
  '<details>',
  '<summary>S</summary>',
  '</details>',
  '<div>raw</div>',
  'text with <kbd>K</kbd> and $$x^2$$',
  'a [^1] note',
  '[^1]: the note',
  '- item',
  '  - nested',
  '1. one',
  '> quote',
  '| a | b |',
  '|---|---|',
  '```',
  '$$',
  '***',
  '# Heading',
  'plain words',
  '',
  '',
];

describe('round trip of generated GitBook-syntax markdown', () => {
  it('normalising once gives the canonical form: normalising again changes nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 24 }), (lines) => {
        const markdown = lines.join('\n');
        const document = markdownToDocument(markdown);
        expect(JSONDocumentSchema.safeParse(document).success).toBe(true);
        const once = documentToMarkdown(document);
        expect(markdownToDocument(once)).toEqual(document);
        expect(normalizeMarkdown(once)).toBe(once);
      }),
      { numRuns: 200 },
    );
  }, 180_000);
});
