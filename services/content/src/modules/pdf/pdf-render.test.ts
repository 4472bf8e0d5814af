import { describe, expect, it } from 'vitest';
import { pdfText, png } from '@quire/kit/testing';
import { isEmbeddableImage, type PdfBookInput, type PdfBookPage } from './pdf-book.ts';
import { renderBook } from './pdf-render.ts';

const page = (p: Partial<PdfBookPage> & Pick<PdfBookPage, 'id' | 'title'>): PdfBookPage => ({
  kind: 'document',
  description: null,
  depth: 0,
  parentId: null,
  markdown: null,
  href: null,
  ...p,
});

const INTRO = `# Welcome

Plain words, **bold words**, *italic words*, ~~struck~~, \`inlineCode()\` and [a link](https://example.com/docs).
Greek: Καλημέρα κόσμε. Cyrillic: Привет, мир. Accents: façade, naïve, Ångström.

## Lists

- first bullet
- second bullet
  1. nested one
  2. nested two

* [x] done task
* [ ] open task

## Code

\`\`\`ts title="hello.ts"
function greet(name: string) {
    return \`Hello, \${name}\`;
}
\`\`\`

| Name | Ρόλος |
| :--- | ---: |
| Alice | Админ |
| Bob | reader |

> A quoted line of wisdom.

{% hint style="warning" %}
Mind the gap.
{% endhint %}

![A red rectangle](gitbook-file:img1 "The caption")

![An animation](gitbook-file:gif1)

---

See [the setup](/pages/setup#install-it) and [the top](#welcome).
`;

const SETUP = `Setup text in the guide.

## Install it

Run the installer. Back to [the introduction](/pages/intro).
Elsewhere: [outside](/pages/elsewhere) and [relative](./other.md).
`;

const input = (over: Partial<PdfBookInput> = {}): PdfBookInput => ({
  title: 'Handbook Ελληνικά',
  subtitle: 'Change request #3: Кириллица',
  note: 'Revision rev1 · 2025-01-02 03:04 UTC',
  createdAt: '2025-01-02T03:04:05.000Z',
  spaceId: 'space1',
  pages: [
    page({ id: 'intro', title: 'Introduction', description: 'What this is about', markdown: INTRO }),
    page({ id: 'guides', title: 'Guides', kind: 'group' }),
    page({ id: 'setup', title: 'Setup', depth: 1, parentId: 'guides', markdown: SETUP }),
    page({ id: 'ext', title: 'External site', kind: 'link', href: 'https://example.org/' }),
  ],
  images: [
    { id: 'img1', contentType: 'image/png', bytes: png(80, 40), width: 80, height: 40 },
    { id: 'gif1', contentType: 'image/gif', bytes: Buffer.from('GIF89a fake'), width: 10, height: 10 },
  ],
  pageUrls: {
    intro: 'https://quire.test/o/o1/s/space1/intro',
    elsewhere: 'https://quire.test/o/o1/s/space1/elsewhere',
  },
  pageTitles: { intro: 'Introduction', guides: 'Guides', setup: 'Setup', ext: 'External site', elsewhere: 'Elsewhere' },
  fileNames: { img1: 'red.png', gif1: 'anim.gif', doc1: 'Handbook.pdf' },
  baseUrl: 'https://quire.test',
  ...over,
});

describe('renderBook', () => {
  it('renders a real PDF: title page, table of contents, the pages with their words in the shipped fonts, page numbers', async () => {
    const out = await renderBook(input());
    expect(Buffer.from(out.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(out.imagesDropped).toBe(false);
    const pdf = await pdfText(out.bytes);
    expect(pdf.pages).toHaveLength(out.pages);
    expect(pdf.info).toMatchObject({ Title: 'Handbook Ελληνικά', Creator: 'Quire' });

    // Title page: no header or footer.
    expect(pdf.pages[0]).toContain('Handbook Ελληνικά');
    expect(pdf.pages[0]).toContain('Change request #3: Кириллица');
    expect(pdf.pages[0]).toContain('Revision rev1');
    expect(pdf.pages[0]).not.toMatch(/\d+ \/ \d+/);
    // Contents, each entry with the sheet it starts on.
    expect(pdf.pages[1]).toContain('Contents');
    const sheetOf = (title: string) => Number(new RegExp(`${title}\\s*(\\d+)`).exec(pdf.pages[1]!)?.[1]);
    expect(sheetOf('Introduction')).toBe(3);
    expect(pdf.pages[sheetOf('Introduction') - 1]).toContain('Introduction');
    expect(pdf.pages[sheetOf('Setup') - 1]).toContain('Setup text in the guide.');
    expect(pdf.pages[sheetOf('External site') - 1]).toContain('https://example.org/');
    // Footer and running header.
    expect(pdf.pages[2]).toContain(`3 / ${out.pages}`);
    expect(pdf.pages[2]).toContain('Handbook Ελληνικά');

    const text = pdf.text.replace(/\s+/g, ' ');
    for (const words of [
      'Plain words, bold words, italic words, struck, inlineCode() and a link.',
      'Greek: Καλημέρα κόσμε. Cyrillic: Привет, мир. Accents: façade, naïve, Ångström.',
      'first bullet',
      'nested two',
      '☑ done task',
      '☐ open task',
      'hello.ts',
      'function greet(name: string) {',
      'return `Hello, ${name}`;',
      'Name Ρόλος',
      'Alice Админ',
      'A quoted line of wisdom.',
      'Warning Mind the gap.',
      'The caption',
      '[Image: An animation]',
      'What this is about',
      'Run the installer.',
    ]) {
      expect(text, words).toContain(words);
    }
    // The outline (bookmarks) nests the pages as the tree does.
    expect(pdf.outline).toEqual(['Introduction', 'Guides', 'Setup', 'External site']);
  });

  it('links inside the PDF to the pages and headings it holds, elsewhere to URLs, and leaves other targets as text', async () => {
    const pdf = await pdfText((await renderBook(input())).bytes);
    // One annotation per word of a link: each link once, in reading order.
    const distinct = <T>(xs: T[]) => [...new Map(xs.map((x) => [JSON.stringify(x), x])).values()];
    const on = (title: string) =>
      distinct(
        pdf.links.filter(
          (l) => l.page === pdf.pages.findIndex((p) => p.includes(title) && !p.includes('Contents')) + 1,
        ),
      );
    // The table of contents: each entry (title and page number) links to its page.
    expect(distinct(pdf.links.filter((l) => l.page === 2).map((l) => l.dest))).toEqual([
      'p:intro',
      'p:guides',
      'p:setup',
      'p:ext',
    ]);
    expect(on('Plain words')).toEqual([
      { page: 3, url: 'https://example.com/docs' },
      { page: 3, dest: 'p:setup#install-it' },
      { page: 3, dest: 'p:intro#welcome' },
    ]);
    // To the introduction (in the PDF), to a page left out (its application URL); the relative link stays text.
    expect(on('Setup text')).toEqual([
      { page: 4, dest: 'p:intro' },
      { page: 4, url: 'https://quire.test/o/o1/s/space1/elsewhere' },
    ]);
    expect(on('Link:')).toEqual([{ page: 5, url: 'https://example.org/' }]);
  });

  it('sets code in the monospace font, keeping the indentation of its lines', async () => {
    const pdf = await pdfText((await renderBook(input())).bytes);
    const item = (str: string) =>
      pdf.items.find((i) => i.str === str) ?? expect.fail(`no item ${str} in ${pdf.items.map((i) => i.str).join('|')}`);
    // DejaVu Sans Mono advances every character by 0.602 em; DejaVu Sans does not.
    const monospaced = (str: string) => Math.abs(item(str).width / str.length / item(str).fontSize - 0.602) < 0.005;
    expect(monospaced('function')).toBe(true);
    expect(monospaced('inlineCode()')).toBe(true);
    expect(monospaced('Plain words,')).toBe(false);
    // Four spaces of the code's font: the second line starts that much to the right of the first.
    expect(item('return').x - item('function').x).toBeCloseTo(4 * item('function').fontSize * 0.602, 1);
  });

  it('keeps long words on the page: wrapped in paragraphs, code, tables, quotes, hints and lists', async () => {
    const word = `${'x'.repeat(200)}END`;
    const markdown = `${word}\n\n\`\`\`\n${word}\n\`\`\`\n\n| a | b |\n| - | - |\n| ${word} | short |\n\n> ${word}\n\n{% hint style="info" %}\n${word}\n{% endhint %}\n\n- item\n  - nested\n\n    \`\`\`\n    ${word}\n    \`\`\`\n`;
    const pdf = await pdfText(
      (await renderBook(input({ pages: [page({ id: 'long', title: 'Long words', markdown })], images: [] }))).bytes,
    );
    const right = Math.max(...pdf.items.map((i) => i.x + i.width));
    expect(right).toBeLessThanOrEqual(595.28 - 50 + 0.5);
    expect(pdf.items.filter((i) => i.str.endsWith('END'))).toHaveLength(6);
  });

  it('shows a page alone without a table of contents, and an empty content as such', async () => {
    const single = await pdfText(
      (await renderBook(input({ pages: [page({ id: 'setup', title: 'Setup', markdown: SETUP })] }))).bytes,
    );
    expect(single.pages).toHaveLength(2);
    expect(single.text).not.toContain('Contents');
    expect(single.pages[1]).toContain('Run the installer.');
    const empty = await pdfText((await renderBook(input({ pages: [] }))).bytes);
    expect(empty.pages).toHaveLength(1);
    expect(empty.text).toContain('this content has no pages');
  });

  it('renders a large book', async () => {
    const pages = Array.from({ length: 60 }, (_, i) =>
      page({
        id: `p${i}`,
        title: `Chapter ${i} Глава`,
        markdown: `## Part ${i}\n\n${'Lorem ipsum dolor sit amet, Ελληνικά. '.repeat(40)}\n`,
      }),
    );
    const out = await renderBook(input({ pages, images: [] }));
    const pdf = await pdfText(out.bytes);
    expect(out.pages).toBeGreaterThanOrEqual(62);
    expect(pdf.text).toContain('Chapter 59 Глава');
  });

  it('prints a conflict left in a change request with both sides under their origin', async () => {
    const markdown = [
      'Before.',
      '{% conflict %}\n{% conflict-side title="main" %}\nLine from main.\n{% endconflict-side %}\n\n{% conflict-side title="change request #3" %}\n{% endconflict-side %}\n{% endconflict %}',
      'After.',
    ].join('\n\n');
    const pdf = await pdfText(
      (await renderBook(input({ pages: [page({ id: 'c', title: 'Conflicted', markdown })], images: [] }))).bytes,
    );
    expect(pdf.text.replace(/\s+/g, ' ')).toContain(
      'Before. Unresolved conflict From main: Line from main. From change request #3: (nothing) After.',
    );
    expect(pdf.text).not.toContain('{%');
  });

  it('prints every block of GitBook’s model sensibly: nothing interactive, nothing left out without a word', async () => {
    const markdown = `Keys <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <mark style="color:red;">red</mark>, inline $$E=mc^2$$, a [mention](/pages/setup "mention") and a note.[^1]

{% tabs %}
{% tab title="On Linux" %}
Run the script.
{% endtab %}

{% tab title="On macOS" %}
Use the package.
{% endtab %}
{% endtabs %}

<details>

<summary>Troubleshooting</summary>

Restart it.

</details>

{% stepper %}
{% step %}
Download it.
{% endstep %}

{% step %}
Install it.
{% endstep %}
{% endstepper %}

{% columns %}
{% column %}
Left side.
{% endcolumn %}

{% column %}
Right side.
{% endcolumn %}
{% endcolumns %}

<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Card one</strong></td><td><a href="https://example.com/one">https://example.com/one</a></td></tr></tbody></table>

{% embed url="https://www.youtube.com/watch?v=abc" %}

{% content-ref url="/pages/setup" %}
[Setup](/pages/setup)
{% endcontent-ref %}

{% file src="gitbook-file:doc1" %}

{% code title="run.sh" lineNumbers="true" %}
\`\`\`sh
echo one
echo two
\`\`\`
{% endcode %}

$$
\\int_0^1 x\\,dx
$$

{% if visitor.claims.unsigned.beta %}
Beta readers only.
{% endif %}

{% include "reusable-1" %}

{% openapi-operation spec="petstore" path="/pets" method="get" %}
[OpenAPI petstore](https://example.com/openapi.json)
{% endopenapi-operation %}

[^1]: The note body.
`;
    const pdf = await pdfText(
      (
        await renderBook(
          input({
            pages: [
              page({ id: 'all', title: 'All blocks', markdown }),
              page({ id: 'setup', title: 'Setup', markdown: SETUP }),
            ],
            images: [],
          }),
        )
      ).bytes,
    );
    const text = pdf.text.replace(/\s+/g, ' ');
    for (const words of [
      'Keys Ctrl, H2O, x2, red, inline E=mc^2, a Setup and a note.1',
      'On Linux Run the script. On macOS Use the package.',
      '▾ Troubleshooting Restart it.',
      '1 Download it. 2 Install it.',
      'Left side. Right side.',
      'Card one → https://example.com/one',
      'Embedded: https://www.youtube.com/watch?v=abc',
      '→ Setup',
      'File: Handbook.pdf',
      'run.sh 1 echo one 2 echo two',
      '\\int_0^1 x\\,dx',
      'Shown when visitor.claims.unsigned.beta Beta readers only.',
      '[Reusable content reusable-1: not included in this export]',
      '[API operation GET /pets of the OpenAPI specification petstore]',
      'Notes 1. The note body.',
    ]) {
      expect(text, words).toContain(words);
    }
    for (const raw of ['{%', '<details', '<summary', '[^1]', '$$', '<kbd', '<mark', '<table'])
      expect(text, raw).not.toContain(raw);
    const on = (title: string) => pdf.links.filter((l) => l.page === pdf.pages.findIndex((p) => p.includes(title)) + 1);
    expect(on('Keys Ctrl')).toEqual(
      expect.arrayContaining([
        { page: 3, dest: 'p:setup' },
        { page: 3, url: 'https://example.com/one' },
        { page: 3, url: 'https://www.youtube.com/watch?v=abc' },
      ]),
    );
  });

  it('embeds only PNG and JPEG, recognised by their bytes', () => {
    expect(isEmbeddableImage(png(1, 1))).toBe('png');
    expect(isEmbeddableImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('jpeg');
    expect(isEmbeddableImage(Buffer.from('GIF89a'))).toBeNull();
    expect(isEmbeddableImage(Buffer.from('<svg/>'))).toBeNull();
  });

  it('drops the images when one cannot be embedded, and says so', async () => {
    const broken = Buffer.concat([Buffer.from(png(4, 4)).subarray(0, 20), Buffer.alloc(10)]);
    const out = await renderBook(
      input({ images: [{ id: 'img1', contentType: 'image/png', bytes: broken, width: 4, height: 4 }] }),
    );
    expect(out.imagesDropped).toBe(true);
    expect((await pdfText(out.bytes)).text).toContain('[Image: A red rectangle]');
  });
});
