import { describe, expect, it } from 'vitest';
import {
  JSONDocumentSchema,
  type DocumentAnnotationBody,
  type DocumentBlockTable,
  type JSONDocument,
} from '@quire/contracts';
import { markdownToDocument } from './markdown-to-document.ts';
import {
  codeLine,
  divider,
  doc,
  file,
  heading,
  image,
  images,
  inlineImage,
  item,
  leaf,
  link,
  p,
  para,
  task,
  text,
  url,
} from './test-builders.ts';

/**
 * Converts and checks the result against the contract schema. (GitBook's own TypeScript type cannot check it
 * statically any more: its enums, such as DocumentTextColor, take no string literal.)
 */
function convert(markdown: string): JSONDocument {
  const document = markdownToDocument(markdown);
  expect(JSONDocumentSchema.parse(document)).toEqual(document);
  return document;
}

describe('markdownToDocument', () => {
  it('gives an empty document for empty markdown', () => {
    expect(convert('')).toEqual(doc());
    expect(convert('\n\n  \n')).toEqual(doc());
  });

  describe('headings', () => {
    it('maps levels 1 to 3, with GitHub anchors in meta.id', () => {
      expect(convert('# Getting started\n\n## Install *it*\n\n### Ünïcode & co')).toEqual(
        doc(
          heading(1, 'getting-started', 'Getting started'),
          heading(2, 'install-it', 'Install ', leaf('it', 'italic')),
          heading(3, 'ünïcode--co', 'Ünïcode & co'),
        ),
      );
    });

    it('turns levels 4 to 6 into heading-3 and setext headings into their level', () => {
      expect(convert('#### Four\n\n###### Six\n\nTwo\n---').nodes.map((n) => n.type)).toEqual([
        'heading-3',
        'heading-3',
        'heading-2',
      ]);
    });

    it('numbers repeated anchors as GitHub does', () => {
      const ids = convert('# Intro\n\n## Intro\n\n### Intro').nodes.map((n) =>
        n.type === 'heading-1' || n.type === 'heading-2' || n.type === 'heading-3' ? n.meta?.id : undefined,
      );
      expect(ids).toEqual(['intro', 'intro-1', 'intro-2']);
    });
  });

  describe('paragraphs and marks', () => {
    it('gives bold, italic, strikethrough and code marks, combined', () => {
      expect(convert('Plain **bold** *italic* ~~gone~~ `code` ***both*** **`bold code`** ~~*struck italic*~~')).toEqual(
        doc(
          para(
            'Plain ',
            leaf('bold', 'bold'),
            ' ',
            leaf('italic', 'italic'),
            ' ',
            leaf('gone', 'strikethrough'),
            ' ',
            leaf('code', 'code'),
            ' ',
            leaf('both', 'bold', 'italic'),
            ' ',
            leaf('bold code', 'bold', 'code'),
            ' ',
            leaf('struck italic', 'italic', 'strikethrough'),
          ),
        ),
      );
    });

    it('merges neighbouring runs with the same marks and keeps spaces at the edges of a format unmarked', () => {
      expect(convert('**a**__b__ **c&#x20;** d')).toEqual(doc(para(leaf('ab', 'bold'), ' ', leaf('c', 'bold'), '  d')));
    });

    it('reads soft line breaks as spaces and hard breaks as \\n', () => {
      expect(convert('one\ntwo  \nthree\\\nfour<br>five')).toEqual(doc(para('one two\nthree\nfour\nfive')));
    });

    it('drops line breaks at the end of a paragraph, and paragraphs with nothing to show', () => {
      expect(convert('text<br>\n\n<br><br>x')).toEqual(doc(para('text'), para('\n\nx')));
    });

    it('keeps backslash escapes and entities as the characters they stand for', () => {
      expect(convert('\\*not bold\\* &amp; &copy; 1\\. x')).toEqual(doc(para('*not bold* & © 1. x')));
    });
  });

  describe('links', () => {
    it('gives url links, GitBook-style with a text on each side', () => {
      expect(convert('See [the **docs**](https://example.com/docs) now')).toEqual(
        doc(p(text('See '), link(url('https://example.com/docs'), text('the ', leaf('docs', 'bold'))), text(' now'))),
      );
    });

    it('keeps relative links (other pages of the space) as url links', () => {
      expect(convert('[Next](../guide/next.md#setup)')).toEqual(
        doc(p(text(), link(url('../guide/next.md#setup'), text('Next')), text())),
      );
    });

    it('reads gitbook-file: URLs as file references', () => {
      expect(convert('[PDF](gitbook-file:f1) [other](gitbook-file:f2?space=s9)')).toEqual(
        doc(p(text(), link(file('f1'), text('PDF')), text(' '), link(file('f2', 's9'), text('other')), text())),
      );
    });

    it('gives links for autolinks, GFM bare URLs and e-mail addresses', () => {
      expect(convert('<https://a.io> www.b.io c@d.io')).toEqual(
        doc(
          p(
            text(),
            link(url('https://a.io'), text('https://a.io')),
            text(' '),
            link(url('http://www.b.io'), text('www.b.io')),
            text(' '),
            link(url('mailto:c@d.io'), text('c@d.io')),
            text(),
          ),
        ),
      );
    });

    it('resolves reference-style links and images through their definitions, which are then dropped', () => {
      expect(
        convert('[Docs][d] and ![logo][img]\n\n[d]: https://docs.io\n[img]: gitbook-file:logo "Our logo"'),
      ).toEqual(
        doc(
          p(
            text(),
            link(url('https://docs.io'), text('Docs')),
            text(' and '),
            inlineImage(file('logo'), { alt: 'logo', caption: 'Our logo' }),
            text(),
          ),
        ),
      );
    });

    it('carries outer marks into the link text', () => {
      expect(convert('**[bold link](u)**')).toEqual(
        doc(p(text(), link(url('u'), text(leaf('bold link', 'bold'))), text())),
      );
    });
  });

  describe('lists', () => {
    it('gives unordered lists of list items holding paragraphs', () => {
      expect(convert('- one\n* two')).toEqual(
        doc(
          { object: 'block', type: 'list-unordered', data: {}, nodes: [item(para('one'))] },
          { object: 'block', type: 'list-unordered', data: {}, nodes: [item(para('two'))] },
        ),
      );
    });

    it('gives ordered lists with their start', () => {
      expect(convert('1. a\n2. b')).toEqual(
        doc({ object: 'block', type: 'list-ordered', data: {}, nodes: [item(para('a')), item(para('b'))] }),
      );
      expect(convert('3) c')).toEqual(
        doc({ object: 'block', type: 'list-ordered', data: { start: 3 }, nodes: [item(para('c'))] }),
      );
    });

    it('gives task lists with checked items; a plain item of a task list is an unchecked task', () => {
      expect(convert('- [ ] todo\n- [x] done\n- plain')).toEqual(
        doc({
          object: 'block',
          type: 'list-tasks',
          data: {},
          nodes: [task(false, para('todo')), task(true, para('done')), task(false, para('plain'))],
        }),
      );
    });

    it('nests lists inside items, with several blocks per item', () => {
      expect(convert('1. first\n\n   more\n   - inner **b**\n     1. deep\n2. second')).toEqual(
        doc({
          object: 'block',
          type: 'list-ordered',
          data: {},
          nodes: [
            item(para('first'), para('more'), {
              object: 'block',
              type: 'list-unordered',
              data: {},
              nodes: [
                item(para('inner ', leaf('b', 'bold')), {
                  object: 'block',
                  type: 'list-ordered',
                  data: {},
                  nodes: [item(para('deep'))],
                }),
              ],
            }),
            item(para('second')),
          ],
        }),
      );
    });

    it('gives an empty item one empty paragraph', () => {
      expect(convert('- a\n-')).toEqual(
        doc({ object: 'block', type: 'list-unordered', data: {}, nodes: [item(para('a')), item(p(text()))] }),
      );
    });

    it('keeps code, quotes, hints and tables inside items; images there are inline', () => {
      const [list] = convert(
        '- ```sh\n  ls\n  ```\n\n  > q\n\n  {% hint style="danger" %}\n  careful\n  {% endhint %}\n\n  | a |\n  |---|\n  | 1 |\n\n  ![x](y.png)',
      ).nodes;
      expect(list?.type === 'list-unordered' && list.nodes[0]?.nodes.map((n) => n.type)).toEqual([
        'code',
        'blockquote',
        'hint',
        'table',
        'paragraph',
      ]);
    });
  });

  describe('code', () => {
    it('gives one code-line per line and the language as syntax', () => {
      expect(convert('```ts\nconst a = 1;\n\n  return a;\n```')).toEqual(
        doc({
          object: 'block',
          type: 'code',
          data: { syntax: 'ts' },
          nodes: [codeLine('const a = 1;'), codeLine(''), codeLine('  return a;')],
        }),
      );
    });

    it('reads a title from the info string', () => {
      expect(convert('```js title="app.js" {1}\nx\n```')).toEqual(
        doc({ object: 'block', type: 'code', data: { syntax: 'js', title: 'app.js' }, nodes: [codeLine('x')] }),
      );
    });

    it('takes indented and tilde-fenced code, without syntax', () => {
      expect(convert('    indented\n\n~~~\ntilde\n~~~')).toEqual(
        doc(
          { object: 'block', type: 'code', data: {}, nodes: [codeLine('indented')] },
          { object: 'block', type: 'code', data: {}, nodes: [codeLine('tilde')] },
        ),
      );
    });
  });

  describe('quotes', () => {
    it('gives blockquotes, nested', () => {
      expect(convert('> a\n>\n> > b\n>\n> - c')).toEqual(
        doc({
          object: 'block',
          type: 'blockquote',
          data: {},
          nodes: [
            para('a'),
            { object: 'block', type: 'blockquote', data: {}, nodes: [para('b')] },
            { object: 'block', type: 'list-unordered', data: {}, nodes: [item(para('c'))] },
          ],
        }),
      );
    });

    it('lifts blocks GitBook does not allow in a quote out of it, splitting the quote', () => {
      expect(convert('> before\n>\n> ```\n> code\n> ```\n>\n> after')).toEqual(
        doc(
          { object: 'block', type: 'blockquote', data: {}, nodes: [para('before')] },
          { object: 'block', type: 'code', data: {}, nodes: [codeLine('code')] },
          { object: 'block', type: 'blockquote', data: {}, nodes: [para('after')] },
        ),
      );
    });
  });

  describe('hints', () => {
    it('reads GitBook hint markers in each style, in GitBook’s compact form', () => {
      for (const style of ['info', 'warning', 'danger', 'success'] as const) {
        expect(convert(`{% hint style="${style}" %}\nCareful **now**\n{% endhint %}`)).toEqual(
          doc({ object: 'block', type: 'hint', data: { style }, nodes: [para('Careful ', leaf('now', 'bold'))] }),
        );
      }
    });

    it('holds several blocks, lists and tables right against the markers', () => {
      expect(
        convert(
          '{% hint style="warning" %}\n- a\n- b\n{% endhint %}\n\n{% hint style="info" %}\n| h |\n|---|\n| v |\n{% endhint %}',
        ).nodes.map((n) => n.type === 'hint' && n.nodes.map((c) => c.type)),
      ).toEqual([['list-unordered'], ['table']]);
    });

    it('works inside quotes and list items', () => {
      const [quote, list] = convert(
        '> {% hint style="success" %}\n> yes\n> {% endhint %}\n\n- {% hint style="info" %}\n  in item\n  {% endhint %}',
      ).nodes;
      // GitBook has no hint in a quote: the hint is lifted out, and the quote, left empty, disappears
      expect(quote).toEqual({ object: 'block', type: 'hint', data: { style: 'success' }, nodes: [para('yes')] });
      expect(list?.type === 'list-unordered' && list.nodes[0]?.nodes[0]).toEqual({
        object: 'block',
        type: 'hint',
        data: { style: 'info' },
        nodes: [para('in item')],
      });
    });

    it('lifts code out of a hint, splitting it', () => {
      expect(convert('{% hint style="info" %}\nRun:\n```sh\nmake\n```\nThen go.\n{% endhint %}')).toEqual(
        doc(
          { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [para('Run:')] },
          { object: 'block', type: 'code', data: { syntax: 'sh' }, nodes: [codeLine('make')] },
          { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [para('Then go.')] },
        ),
      );
    });

    it('leaves unmatched markers, unknown styles and markers inside code as text', () => {
      expect(convert('{% hint style="info" %}\nno end')).toEqual(doc(para('{% hint style="info" %}'), para('no end')));
      expect(convert('{% hint style="tip" %}\nx\n{% endhint %}')).toEqual(
        doc(para('{% hint style="tip" %}'), para('x'), para('{% endhint %}')),
      );
      expect(convert('```\n{% hint style="info" %}\n{% endhint %}\n```').nodes[0]?.type).toBe('code');
      expect(convert('\\{% hint style="info" %}\n\nx\n\n{% endhint %}')).toEqual(
        doc(para('{% hint style="info" %}'), para('x'), para('{% endhint %}')),
      );
    });

    it('gives an empty hint an empty paragraph', () => {
      expect(convert('{% hint style="info" %}\n{% endhint %}')).toEqual(
        doc({ object: 'block', type: 'hint', data: { style: 'info' }, nodes: [p(text())] }),
      );
    });
  });

  describe('tables', () => {
    it('gives text columns titled by the header, with alignment, one fragment per cell and rows in order', () => {
      const [table] = convert('| Name | Size | Note |\n|:-----|-----:|:----:|\n| **a** | 1 | x<br>y |\n| b |').nodes;
      const expected: DocumentBlockTable = {
        object: 'block',
        type: 'table',
        data: {
          view: { type: 'grid', columns: ['c1', 'c2', 'c3'], hideHeader: false },
          records: {
            r1: { orderIndex: 'a0', values: { c1: 'r1-c1', c2: 'r1-c2', c3: 'r1-c3' } },
            r2: { orderIndex: 'a1', values: { c1: 'r2-c1', c2: 'r2-c2', c3: 'r2-c3' } },
          },
          definition: {
            c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'left' },
            c2: { id: 'c2', title: 'Size', type: 'text', textAlignment: 'right' },
            c3: { id: 'c3', title: 'Note', type: 'text', textAlignment: 'center' },
          },
        },
        fragments: [
          { object: 'fragment', fragment: 'r1-c1', nodes: [para(leaf('a', 'bold'))] },
          { object: 'fragment', fragment: 'r1-c2', nodes: [para('1')] },
          { object: 'fragment', fragment: 'r1-c3', nodes: [para('x\ny')] },
          { object: 'fragment', fragment: 'r2-c1', nodes: [para('b')] },
          { object: 'fragment', fragment: 'r2-c2', nodes: [p(text())] },
          { object: 'fragment', fragment: 'r2-c3', nodes: [p(text())] },
        ],
        isVoid: true,
      };
      expect(table).toEqual(expected);
    });

    it('flattens header formatting to plain titles and keeps escaped pipes', () => {
      const [table] = convert('| **A** `b` | c \\| d |\n|---|---|\n| `x \\| y` | z |').nodes;
      expect(table?.type === 'table' && Object.values(table.data.definition).map((c) => c.title)).toEqual([
        'A b',
        'c | d',
      ]);
      expect(table?.type === 'table' && table.fragments[0]?.nodes).toEqual([para(leaf('x | y', 'code'))]);
    });

    it('orders many rows with fractional indexes', () => {
      const rows = Array.from({ length: 70 }, (_, i) => `| ${i} |`).join('\n');
      const [table] = convert(`| n |\n|---|\n${rows}`).nodes;
      const indexes = table?.type === 'table' ? Object.values(table.data.records).map((r) => r.orderIndex) : [];
      expect(indexes).toHaveLength(70);
      expect([...indexes].sort((a, b) => (a < b ? -1 : 1))).toEqual(indexes);
    });
  });

  describe('images', () => {
    it('gives an images block for a paragraph of images, with url and file refs and the title as caption', () => {
      expect(convert('![A chart](https://cdn.io/c.png "Sales") ![](gitbook-file:img42)')).toEqual(
        doc(
          images(
            image({ ref: url('https://cdn.io/c.png'), alt: 'A chart' }, para('Sales')),
            image({ ref: file('img42') }),
          ),
        ),
      );
    });

    it('keeps images among text as inline images', () => {
      expect(convert('Logo: ![l](gitbook-file:f1?space=s2) here')).toEqual(
        doc(p(text('Logo: '), inlineImage(file('f1', 's2'), { alt: 'l' }), text(' here'))),
      );
    });

    it('reads images as GitBook’s markdown export writes them', () => {
      expect(
        convert(
          '<figure><img src=".gitbook/assets/image (4).png" alt="A &quot;chart&quot;" width="188"><figcaption><p>Q1 <strong>sales</strong></p></figcaption></figure>\n\n- <figure><img src="gitbook-file:f1" alt=""><figcaption></figcaption></figure>',
        ),
      ).toEqual(
        doc(
          images(image({ ref: url('.gitbook/assets/image (4).png'), alt: 'A "chart"', width: 188 }, para('Q1 sales'))),
          {
            object: 'block',
            type: 'list-unordered',
            data: {},
            nodes: [item(p(text(), inlineImage(file('f1')), text()))],
          },
        ),
      );
    });

    it('keeps images inside links as inline images of the link', () => {
      expect(convert('[![badge](b.svg)](https://ci.io)')).toEqual(
        doc(p(text(), link(url('https://ci.io'), text(), inlineImage(url('b.svg'), { alt: 'badge' }), text()), text())),
      );
    });
  });

  it('gives dividers for thematic breaks', () => {
    expect(convert('a\n\n---\n\n***\n\n___')).toEqual(doc(para('a'), divider, divider, divider));
  });

  describe('what GitBook has no node for', () => {
    it('keeps HTML blocks as HTML blocks, as written (never text)', () => {
      expect(convert('<div align="center">\n  <b>Hi</b>\n</div>')).toEqual(
        doc({
          object: 'block',
          type: 'html',
          data: { html: '<div align="center">\n  <b>Hi</b>\n</div>' },
          isVoid: true,
        }),
      );
    });

    it('keeps inline HTML it does not know as its text; <kbd> is the keyboard mark', () => {
      expect(convert('a <span>x</span> b <b>')).toEqual(doc(para('a <span>x</span> b <b>')));
      expect(convert('a <kbd>Ctrl</kbd> b')).toEqual(doc(para('a ', leaf('Ctrl', 'keyboard'), ' b')));
    });

    it('reads footnotes as annotations holding the note, and a reference without a note as text', () => {
      const note: DocumentAnnotationBody = {
        object: 'fragment',
        fragment: 'annotation-body',
        type: 'annotation-body',
        nodes: [para('Source.')],
      };
      expect(convert('Claim[^1].\n\n[^1]: Source.')).toEqual(
        doc(
          p(
            text('Claim'),
            { object: 'inline', type: 'annotation', nodes: [text()], fragments: [note], isVoid: false },
            text('.'),
          ),
        ),
      );
      expect(convert('Claim[^2].')).toEqual(doc(para('Claim[^2].')));
    });

    it('keeps an HTML block whole, the markdown inside it too', () => {
      expect(convert('<p>\nSee https://x.io\n</p>')).toEqual(
        doc({ object: 'block', type: 'html', data: { html: '<p>\nSee https://x.io\n</p>' }, isVoid: true }),
      );
    });
  });

  it('reads CRLF line endings', () => {
    expect(convert('# T\r\n\r\n- a\r\n- b\r\n')).toEqual(convert('# T\n\n- a\n- b\n'));
  });
});
