import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSONDocumentSchema, type JSONDocument } from '@quire/contracts';
import { documentToMarkdown, markdownToDocument, normalizeMarkdown } from '../index.ts';
import { CLIENT_JSON_DOCUMENT } from './test-builders.ts';

/**
 * The two directions against each other:
 * - a document made from markdown comes back unchanged through its markdown: M(D(d)) = d;
 * - markdown made from markdown is canonical: D(M(D(M(md)))) = D(M(md)), i.e. normalising is idempotent;
 * - any valid document, once canonical, is stable the same way.
 */
function expectStable(markdown: string): void {
  const document = markdownToDocument(markdown);
  const canonical = documentToMarkdown(document);
  expect(markdownToDocument(canonical)).toEqual(document);
  expect(normalizeMarkdown(canonical)).toBe(canonical);
}

const TRICKY = [
  '---\n\n---\n\n',
  '---\n---\ntext',
  '# Title with `code` and [link](https://x.io)\n\nText',
  '**bold *italic inside* bold** and *italic **bold inside** italic*',
  '***all*** **a**_b_**c** x**mid**word `a` `` b`c `` ` spaced `',
  '~~strike *it* **bold**~~ ~single~',
  'a\\\nb  \nc<br>d<br/>e\nsoft',
  'Escapes: \\* \\_ \\` \\# \\[ \\] \\< \\> \\\\ \\| &amp; &lt;div&gt; &#x20;lead',
  '1. a\n1. b\n1. c\n\n3) d\n4) e',
  '- a\n    - b\n        - c\n- d\n\n  continued\n\n  ```\n  code in item\n  ```',
  '- [ ] a\n- [x] b\n  - [ ] nested\n- c',
  '* one\n+ two\n- three',
  '> # Quoted heading\n> text\n> > deeper\n> - list\n>\n> ```js\n> code\n> ```\n> | a |\n> |---|\n> | 1 |',
  '{% hint style="info" %}\nInfo with **bold** and [link](u)\n{% endhint %}\n{% hint style="warning" %}\n- a\n- b\n{% endhint %}\n\n{% hint style="danger" %}\n\nspaced\n\n{% endhint %}\n{% hint style="success" %}\n| a | b |\n|---|---|\n| 1 | 2 |\n{% endhint %}',
  '{% hint style="info" %}\nouter\n{% hint style="warning" %}\ninner\n{% endhint %}\nafter\n{% endhint %}',
  '- {% hint style="info" %}\n  in a list\n  {% endhint %}\n- > {% hint style="danger" %}\n  > quoted\n  > {% endhint %}',
  '{% hint style="info" %}\n```js\ncode in hint\n```\n{% endhint %}',
  // an HTML block closed by a tag line inside a list item (lists were not descended into)
  '- {% hint style="info" %}\n  <div>\n    x\n  </div>\n  \n  ```\n  \n  ```\n  {% endhint %}\n\n',
  '```\n{% hint style="info" %}\nnot a hint\n{% endhint %}\n```',
  '<!--\n{% hint style="info" %}\n-->\n\ntext',
  '| Left | Center | Right |\n|:--|:-:|--:|\n| `a\\|b` | **b** | [c](d) |\n| x<br>y | | ![i](gitbook-file:f) |\n| only one |',
  '![a](https://i.io/a.png "Caption") ![b](gitbook-file:b2?space=s1)\n![c](c.png)',
  'Text ![inline](i.png) more [![badge](b.svg)](https://ci) end',
  '[ref link][r] and ![ref img][i] and [collapsed][] [r]\n\n[r]: https://r.io "t"\n[i]: gitbook-file:img\n[collapsed]: /c',
  '<https://a.io> www.b.io/path?x=1. https://c.io, mail@d.io',
  '<figure><img src=".gitbook/assets/a b.png" alt="x"><figcaption><p>Cap</p></figcaption></figure>\n\n> <figure><img src="y.png" alt=""></figure>',
  '<div align="center">\n  <img src="x.png">\n</div>\n\n<details><summary>More</summary>\n\nHidden *text*\n\n</details>',
  'Footnote[^n] here.\n\n[^n]: The note\n    continues.',
  '#### Deep heading\n\n###### Deeper',
  'Setext\n======\n\nTwo\n---',
  '---\n***\n___',
  '    indented code\n    more\n\n~~~python\ntilde\n~~~',
  '````md\n```\nnested fence\n```\n````',
  'Line with trailing spaces   \nand tabs\t\there',
  'Unicode: é ß 東京 🎉 — “quotes” … \u00a0nbsp',
  '\\{% hint style="info" %}\n\nliteral markers\n\n\\{% endhint %}',
  '1. only\n\n   para\n\n2. two',
  '-\n- [ ]\n- [x]',
  '',
  '\n\n\n',
];

describe('round trip', () => {
  it.each(TRICKY)('is stable for %j', (markdown) => {
    expectStable(markdown);
  });

  it('canonicalises equivalent markdown to the same text', () => {
    const variants = [
      '# Title\n\n* one\n* two\n\n__bold__ _it_\n\n***\n\n```js\nx\n```',
      'Title\n=====\n\n+ one\n+ two\n\n**bold** *it*\n\n___\n\n~~~js\nx\n~~~\n\n',
      '#   Title   #\r\n\r\n- one\r\n- two\r\n\r\n**bold** *it*\r\n\r\n- - -\r\n\r\n```js\r\nx\r\n```',
    ];
    const normalized = variants.map(normalizeMarkdown);
    expect(new Set(normalized).size).toBe(1);
    expect(normalized[0]).toBe('# Title\n\n* one\n* two\n\n**bold** _it_\n\n***\n\n```js\nx\n```\n');
  });

  it('gives a JSON document written by a client the same canonical markdown as the same content in markdown', () => {
    const fromJson = documentToMarkdown(JSONDocumentSchema.parse(CLIENT_JSON_DOCUMENT));
    expect(fromJson).toBe(normalizeMarkdown('Title\n===\n\nHello __world__'));
  });

  it('holds for generated markdown', () => {
    fc.assert(
      fc.property(markdownArbitrary(), (markdown) => {
        expectStable(markdown);
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('holds for generated JSON documents, once canonical', () => {
    fc.assert(
      fc.property(documentArbitrary(), (raw) => {
        const document = JSONDocumentSchema.parse(raw);
        expectStable(documentToMarkdown(document));
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('produces only documents that validate against the contract', () => {
    fc.assert(
      fc.property(markdownArbitrary(), (markdown) => {
        const document = markdownToDocument(markdown);
        expect(JSONDocumentSchema.parse(document)).toEqual(document);
      }),
      { numRuns: 200 },
    );
    for (const markdown of TRICKY)
      expect(JSONDocumentSchema.safeParse(markdownToDocument(markdown)).success).toBe(true);
  }, 120_000);

  it('converts a 5,000-line document both ways (timing reported, not asserted)', () => {
    const section = (i: number) =>
      `## Section ${i}\n\nSome **bold** and *italic* text with \`code\` and a [link](https://example.com/${i}) that wraps\nonto a second line, with ~~strike~~.\n\n` +
      `- item one\n- item two\n  - nested\n1. first\n2. second\n\n\`\`\`ts\nconst x = ${i};\nconsole.log(x);\n\`\`\`\n\n` +
      `{% hint style="info" %}\nA hint with **bold**.\n{% endhint %}\n\n| a | b |\n|---|---|\n| ${i} | two |\n\n> quoted ${i}\n\n![img](gitbook-file:f${i})\n\n---\n\n`;
    let markdown = '';
    for (let i = 0; markdown.split('\n').length < 5000; i++) markdown += section(i);
    const started = performance.now();
    const document = markdownToDocument(markdown);
    const parsed = performance.now();
    const back = documentToMarkdown(document);
    const written = performance.now();
    console.info(
      `5,000-line document (${markdown.split('\n').length} lines, ${markdown.length} chars): ` +
        `markdown→document ${(parsed - started).toFixed(0)} ms, document→markdown ${(written - parsed).toFixed(0)} ms`,
    );
    expect(markdownToDocument(back)).toEqual(document);
  });
});

// ── Generators ──────────────────────────────────────────────────────────────────────────────────────────

function markdownArbitrary(): fc.Arbitrary<string> {
  const word = fc.stringMatching(/^[a-zA-Z0-9 *_`~[\]()<>#|\\!.:&;'"{}%+=-]{1,12}$/);
  const token = fc.constantFrom(
    'é',
    'ß',
    '東京',
    ' ',
    '  ',
    '\u00a0',
    'www.x.com',
    'https://a.b/c',
    '&amp;',
    '&#x20;',
    '\\',
    '1.',
    '-',
    '+',
    '>',
    '#',
  );
  const text = fc.array(fc.oneof(word, token), { minLength: 1, maxLength: 5 }).map((a) => a.join(''));
  const inline = fc.oneof(
    text,
    text.map((t) => `**${t}**`),
    text.map((t) => `*${t}*`),
    text.map((t) => `_${t}_`),
    text.map((t) => `~~${t}~~`),
    text.map((t) => '`' + t.replace(/`/g, '') + '`'),
    fc
      .tuple(text, fc.constantFrom('https://x.y/z', 'gitbook-file:f1', '/rel/page', 'a b'))
      .map(([t, u]) => `[${t}](${u})`),
    fc.tuple(text, fc.constantFrom('https://x.y/i.png', 'gitbook-file:f1')).map(([t, u]) => `![${t}](${u})`),
    fc.constantFrom('  \n', '\n', '<br>', '<span>'),
  );
  const line = fc.array(inline, { minLength: 1, maxLength: 5 }).map((a) => a.join('').replace(/\n/g, ' '));
  const para = fc.array(inline, { minLength: 1, maxLength: 6 }).map((a) => a.join(''));
  const indent = (s: string, by: string) => s.replace(/\n/g, `\n${by}`);
  const { block } = fc.letrec<{ block: string; leaf: string }>((tie) => ({
    leaf: fc.oneof(
      para,
      fc.tuple(fc.integer({ min: 1, max: 6 }), line).map(([d, l]) => `${'#'.repeat(d)} ${l}`),
      fc
        .tuple(fc.constantFrom('', 'js', 'python'), fc.array(word, { maxLength: 3 }))
        .map(([lang, lines]) => '```' + lang + '\n' + lines.join('\n').replace(/`/g, '') + '\n```'),
      fc.tuple(text, text, text, text).map((cells) => {
        const [a, b, c, d] = cells.map((cell) => cell.replace(/\|/g, ''));
        return `| ${a} | ${b} |\n|---|:-:|\n| ${c} | ${d} |`;
      }),
      fc.constantFrom('---', '<div>\n  x\n</div>', '![a](https://i/p.png) ![b](gitbook-file:zz "Cap")'),
    ),
    block: fc.oneof(
      { depthSize: 'small' },
      tie('leaf'),
      fc
        .array(fc.tuple(fc.constantFrom('- ', '1. ', '- [ ] ', '- [x] '), tie('block')), { minLength: 1, maxLength: 3 })
        .map((items) =>
          items.map(([bullet, content]) => bullet + indent(content, ' '.repeat(bullet.length))).join('\n'),
        ),
      tie('block').map((content) => `> ${indent(content, '> ')}`),
      fc
        .tuple(
          fc.constantFrom('info', 'warning', 'danger', 'success'),
          fc.array(tie('block'), { minLength: 1, maxLength: 2 }),
        )
        .map(([style, content]) => `{% hint style="${style}" %}\n${content.join('\n\n')}\n{% endhint %}`),
    ),
  }));
  return fc
    .array(fc.tuple(block, fc.constantFrom('\n\n', '\n')), { maxLength: 6 })
    .map((blocks) => blocks.map(([b, sep]) => b + sep).join(''));
}

function documentArbitrary(): fc.Arbitrary<unknown> {
  const chars = fc.stringMatching(/^[a-zA-Z0-9 *_`~[\]()<>#|\\!.:&;'"{}%+=\n-]{0,8}$/);
  const marks = fc
    .subarray(['bold', 'italic', 'strikethrough', 'code'] as const)
    .map((types) => types.map((type) => ({ object: 'mark', type })));
  const leaf = fc.record({
    object: fc.constant('leaf'),
    text: fc.oneof(chars, fc.constantFrom(' ', 'é', 'x y', 'www.a.com', '1. ', '# ')),
    marks,
  });
  const text = fc.record({ object: fc.constant('text'), leaves: fc.array(leaf, { maxLength: 4 }) });
  const ref = fc.oneof(
    fc.record({ kind: fc.constant('url'), url: fc.constantFrom('https://x.y', '/a/b', 'a b', 'https://x.y/(p)') }),
    fc.record({ kind: fc.constant('file'), file: fc.constantFrom('f1', 'a/b') }),
  );
  const inlineImage = fc.record({
    object: fc.constant('inline'),
    type: fc.constant('inline-image'),
    data: fc.record({ ref, alt: chars, caption: chars }, { requiredKeys: ['ref'] }),
    isVoid: fc.constant(true),
  });
  const link = fc.record({
    object: fc.constant('inline'),
    type: fc.constant('link'),
    data: fc.record({ ref }),
    nodes: fc.array(fc.oneof(text, inlineImage), { minLength: 1, maxLength: 3 }),
  });
  const phrasing = fc.array(fc.oneof({ weight: 4, arbitrary: text }, link, inlineImage), {
    minLength: 1,
    maxLength: 5,
  });
  const paragraph = phrasing.map((nodes) => ({ object: 'block', type: 'paragraph', nodes }));
  const heading = fc
    .tuple(fc.constantFrom('heading-1', 'heading-2', 'heading-3'), phrasing)
    .map(([type, nodes]) => ({ object: 'block', type, data: {}, nodes }));
  const code = fc.record({
    object: fc.constant('block'),
    type: fc.constant('code'),
    data: fc.record(
      { syntax: fc.constantFrom('js', 'c++'), title: chars.map((t) => t.replace(/\n/g, '')) },
      { requiredKeys: [] },
    ),
    nodes: fc.array(
      chars.map((line) => ({
        object: 'block',
        type: 'code-line',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line.replace(/\n/g, ''), marks: [] }] }],
      })),
      { minLength: 1, maxLength: 3 },
    ),
  });
  const divider = fc.constant({ object: 'block', type: 'divider', data: {}, isVoid: true });
  const image = fc.record({
    object: fc.constant('block'),
    type: fc.constant('image'),
    data: fc.record({ ref, alt: chars }, { requiredKeys: ['ref'] }),
    fragments: fc.constant([]),
    isVoid: fc.constant(true),
  });
  const images = fc
    .array(image, { minLength: 1, maxLength: 3 })
    .map((nodes) => ({ object: 'block', type: 'images', data: {}, nodes, isVoid: false }));
  const table = fc
    .tuple(
      fc.array(fc.tuple(chars, fc.constantFrom('left', 'center', 'right')), { minLength: 1, maxLength: 3 }),
      fc.array(fc.array(paragraph, { minLength: 3, maxLength: 3 }), { maxLength: 3 }),
    )
    .map(([columns, rows]) => ({
      object: 'block',
      type: 'table',
      data: {
        view: { type: 'grid', columns: columns.map((_, i) => `c${i}`), hideHeader: false },
        records: Object.fromEntries(
          rows.map((_, r) => [
            `r${r}`,
            { orderIndex: `a${r}`, values: Object.fromEntries(columns.map((_, c) => [`c${c}`, `f${r}-${c}`])) },
          ]),
        ),
        definition: Object.fromEntries(
          columns.map(([title, textAlignment], i) => [`c${i}`, { id: `c${i}`, title, type: 'text', textAlignment }]),
        ),
      },
      fragments: rows.flatMap((cells, r) =>
        columns.map((_, c) => ({ object: 'fragment', fragment: `f${r}-${c}`, nodes: [cells[c]] })),
      ),
      isVoid: true,
    }));
  const { document } = fc.letrec<{
    essential: unknown;
    list: unknown;
    quote: unknown;
    hint: unknown;
    document: unknown;
  }>((tie) => ({
    essential: fc.oneof({ depthSize: 'small' }, paragraph, paragraph, heading, divider, tie('list')),
    list: fc
      .tuple(
        fc.constantFrom('list-ordered', 'list-unordered', 'list-tasks'),
        fc.array(
          fc.tuple(fc.boolean(), fc.array(fc.oneof(tie('essential'), code, table), { minLength: 1, maxLength: 2 })),
          { minLength: 1, maxLength: 3 },
        ),
      )
      .map(([type, items]) => ({
        object: 'block',
        type,
        data: {},
        nodes: items.map(([checked, nodes]) => ({
          object: 'block',
          type: 'list-item',
          data: type === 'list-tasks' ? { checked } : {},
          nodes,
        })),
      })),
    quote: fc
      .array(fc.oneof(tie('essential'), tie('quote')), { minLength: 1, maxLength: 2 })
      .map((nodes) => ({ object: 'block', type: 'blockquote', nodes })),
    hint: fc
      .tuple(
        fc.constantFrom('info', 'warning', 'danger', 'success'),
        fc.array(fc.oneof(tie('essential'), table), { minLength: 1, maxLength: 2 }),
      )
      .map(([style, nodes]) => ({ object: 'block', type: 'hint', data: { style }, nodes })),
    document: fc
      .array(fc.oneof(tie('essential'), tie('quote'), tie('hint'), code, images, table), { maxLength: 5 })
      .map((nodes): unknown => ({ object: 'document', data: {}, nodes })),
  }));
  return document;
}

export type { JSONDocument };
