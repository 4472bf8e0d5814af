import { describe, expect, it } from 'vitest';
import { JSONDocumentSchema, type DocumentBlockTable, type DocumentBlockTopLevel } from '@quire/contracts';
import { readFileSync } from 'node:fs';
import { documentToMarkdown, gitbookMarkdown } from './document-to-markdown.ts';
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

/** The markdown of a document made of `blocks` (validated first, as a write would be). */
const md = (...blocks: DocumentBlockTopLevel[]) => documentToMarkdown(JSONDocumentSchema.parse(doc(...blocks)));

describe('documentToMarkdown', () => {
  it('writes nothing for an empty document', () => {
    expect(md()).toBe('');
  });

  it('writes ATX headings; the anchor is not written (it follows from the text)', () => {
    expect(md(heading(1, 'ignored', 'One'), heading(2, 'x', 'Two ', leaf('b', 'bold')), heading(3, 'y', 'Three'))).toBe(
      '# One\n\n## Two **b**\n\n### Three\n',
    );
  });

  describe('paragraphs and marks', () => {
    it('writes each mark, and nests combined marks', () => {
      expect(
        md(
          para(
            'a ',
            leaf('b', 'bold'),
            ' ',
            leaf('i', 'italic'),
            ' ',
            leaf('s', 'strikethrough'),
            ' ',
            leaf('c', 'code'),
          ),
        ),
      ).toBe('a **b** _i_ ~~s~~ `c`\n');
      expect(
        md(para(leaf('bold ', 'bold'), leaf('both', 'bold', 'italic'), leaf(' code', 'bold', 'italic', 'code'))),
      ).toBe('**bold _both` code`_**\n');
    });

    it('keeps formatting off the spaces at its edges, which markdown could not say', () => {
      expect(md(para('a', leaf(' spaced ', 'bold'), 'b'))).toBe('a **spaced** b\n');
    });

    it('escapes what would otherwise be markdown', () => {
      expect(md(para('*not* `code` # 1. [x](y) <b> {% hint style="info" %}'))).toBe(
        '\\*not\\* \\`code\\` # 1. \\[x]\\(y) <b> {% hint style="info" %}\n',
      );
      // HTML-looking text is written as it is when it reads back as the same text, else escaped
      expect(md(para('<kbd>x</kbd> <span>y</span>'))).toBe('\\<kbd>x\\</kbd> \\<span>y\\</span>\n');
      expect(md(para('<span>y</span>'))).toBe('<span>y</span>\n');
      expect(md(para('# title'), para('1. item'), para('{% endhint %}'))).toBe(
        '\\# title\n\n1\\. item\n\n{% endhint %}\n',
      );
      // tag lines kept as text are written as they are, unless they would then pair into a block
      expect(md(para('{% hint style="info" %}'), para('x'), para('{% endhint %}'))).toBe(
        '\\{% hint style="info" %}\n\nx\n\n\\{% endhint %}\n',
      );
      expect(md(para('{% foo %}'), para('x'), para('{% endfoo %}'))).toBe('{% foo %}\n\nx\n\n{% endfoo %}\n');
    });

    it('writes \\n as a hard break, and drops breaks at the end of a paragraph', () => {
      expect(md(para('one\ntwo\n'))).toBe('one\\\ntwo\n');
    });

    it('drops empty paragraphs', () => {
      expect(md(p(text()), para('x'), p(text('')))).toBe('x\n');
    });

    it('reads consecutive text nodes as one', () => {
      expect(md(p(text(leaf('a', 'bold')), text(leaf('b', 'bold'))))).toBe('**ab**\n');
    });
  });

  describe('links', () => {
    it('writes url links, autolinks when the text is the address', () => {
      expect(
        md(
          p(
            text('See '),
            link(url('https://x.io/a b'), text('here')),
            text(' or '),
            link(url('https://x.io'), text('https://x.io')),
            text(),
          ),
        ),
      ).toBe('See [here](<https://x.io/a b>) or <https://x.io>\n');
    });

    it('writes file references as gitbook-file: URLs', () => {
      expect(
        md(p(text(), link(file('f1'), text('doc')), text(' '), link(file('a/b', 's1'), text('other')), text())),
      ).toBe('[doc](gitbook-file:f1) [other](gitbook-file:a%2Fb?space=s1)\n');
    });

    it('writes an e-mail address CommonMark would not autolink as a plain link', () => {
      expect(
        md(
          p(
            text(),
            link(url('mailto:a@b.co'), text('a@b.co')),
            text(' '),
            link(url('mailto:_x@y.z_w'), text('_x@y.z_w')),
            text(),
          ),
        ),
      ).toBe('<a@b.co> [\\_x@y.z_w](mailto:_x@y.z_w)\n');
    });
  });

  describe('lists', () => {
    it('writes unordered, ordered (with start) and task lists, nested', () => {
      // (a list that does not start at 1 cannot interrupt a paragraph: hence the blank line)
      expect(
        md(
          {
            object: 'block',
            type: 'list-unordered',
            data: {},
            nodes: [
              item(para('a'), {
                object: 'block',
                type: 'list-ordered',
                data: { start: 3 },
                nodes: [item(para('b')), item(para('c'))],
              }),
            ],
          },
          {
            object: 'block',
            type: 'list-tasks',
            data: {},
            nodes: [task(true, para('done')), task(false, para('todo'))],
          },
        ),
      ).toBe('* a\n\n  3. b\n  4. c\n\n- [x] done\n- [ ] todo\n');
    });

    it('keeps adjacent lists apart with another bullet', () => {
      const list: DocumentBlockTopLevel = {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [item(para('x'))],
      };
      expect(md(list, list)).toBe('* x\n\n- x\n');
    });

    it('writes an item with several blocks apart (a tight item is one block, or a paragraph and its sub-list)', () => {
      expect(
        md({
          object: 'block',
          type: 'list-ordered',
          data: {},
          nodes: [item(para('one'), para('two'), { object: 'block', type: 'code', data: {}, nodes: [codeLine('x')] })],
        }),
      ).toBe('1. one\n\n   two\n\n   ```\n   x\n   ```\n');
    });

    it('writes empty items and empty tasks', () => {
      expect(md({ object: 'block', type: 'list-unordered', data: {}, nodes: [item(p(text())), item(para('b'))] })).toBe(
        '*\n* b\n',
      );
      expect(md({ object: 'block', type: 'list-tasks', data: {}, nodes: [task(false, p(text()))] })).toBe(
        '* [ ] &#x20;\n',
      );
    });
  });

  it('writes fenced code with its syntax and title', () => {
    expect(
      md({
        object: 'block',
        type: 'code',
        data: { syntax: 'py', title: 'app.py' },
        nodes: [codeLine('def f():'), codeLine('    return 1'), codeLine('')],
      }),
    ).toBe('{% code title="app.py" %}\n```py\ndef f():\n    return 1\n\n```\n{% endcode %}\n');
    expect(md({ object: 'block', type: 'code', data: {}, nodes: [codeLine('has ``` inside')] })).toBe(
      '````\nhas ``` inside\n````\n',
    );
  });

  it('writes blockquotes, nested', () => {
    expect(
      md({
        object: 'block',
        type: 'blockquote',
        data: {},
        nodes: [para('a'), { object: 'block', type: 'blockquote', data: {}, nodes: [para('b')] }],
      }),
    ).toBe('> a\n>\n> > b\n');
  });

  it('writes hints in GitBook’s form, content right against the markers', () => {
    expect(
      md(
        para('before'),
        {
          object: 'block',
          type: 'hint',
          data: { style: 'warning' },
          nodes: [
            para('Mind ', leaf('this', 'bold')),
            { object: 'block', type: 'list-unordered', data: {}, nodes: [item(para('x'))] },
          ],
        },
        para('after'),
      ),
    ).toBe('before\n\n{% hint style="warning" %}\nMind **this**\n\n* x\n{% endhint %}\n\nafter\n');
  });

  it('writes tables: header from the column titles, alignment, rows by order index, <br> for line breaks', () => {
    const table: DocumentBlockTable = {
      object: 'block',
      type: 'table',
      data: {
        view: { type: 'grid', columns: ['b', 'a'], hideHeader: false },
        records: {
          later: { orderIndex: 'a1', values: { a: 'f3', b: 'f4' } },
          first: { orderIndex: 'a0', values: { a: 'f1', b: 'f2' } },
        },
        definition: {
          a: { id: 'a', title: 'Left', type: 'text', textAlignment: 'left' },
          b: { id: 'b', title: 'Pipe | right', type: 'text', textAlignment: 'right' },
        },
      },
      fragments: [
        { object: 'fragment', fragment: 'f1', nodes: [para(leaf('x', 'bold'))] },
        { object: 'fragment', fragment: 'f2', nodes: [para('1\n2')] },
        { object: 'fragment', fragment: 'f3', nodes: [para('two'), para('paragraphs')] },
      ],
      isVoid: true,
    };
    expect(md(table)).toBe('| Pipe \\| right | Left |\n| -: | - |\n| 1<br>2 | **x** |\n| | two<br>paragraphs |\n');
    // exported to Git, padded as GitBook writes tables
    expect(gitbookMarkdown(md(table))).toBe(
      '| Pipe \\| right | Left              |\n| ------------: | ----------------- |\n|        1<br>2 | **x**             |\n|               | two<br>paragraphs |\n',
    );
  });

  it('writes an images block as a paragraph of images, one per line, captions as titles', () => {
    expect(
      md(
        images(
          image({ ref: url('https://c.io/a.png'), alt: 'A' }, para('The ', leaf('caption', 'bold'))),
          image({ ref: file('img1') }),
        ),
      ),
    ).toBe('![A](https://c.io/a.png "The caption")\n![](gitbook-file:img1)\n');
  });

  it('writes inline images', () => {
    expect(md(p(text('icon '), inlineImage(file('i1'), { alt: 'i', caption: 'c' }), text('.')))).toBe(
      'icon ![i](gitbook-file:i1 "c").\n',
    );
  });

  it('writes dividers', () => {
    // as GitBook writes them; `---` first in a page would open front matter
    expect(md(para('a'), divider, para('b'))).toBe('a\n\n***\n\nb\n');
    expect(md(divider, para('b'), divider)).toBe('***\n\nb\n\n***\n');
  });
});

describe('documentToMarkdown given the markdown the document was read from', () => {
  it('writes exactly what it writes without it, raw tags and HTML included', () => {
    const fixtures = ['every-block.md', 'gitbook-export.txt'].map((name) =>
      readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'),
    );
    const samples = [
      ...fixtures,
      '{% unknown %}\n\ntext\n\n{% endunknown %}\n',
      '\\{% hint style="info" %}\n\nx\n\n{% endhint %}\n',
      '<div>raw</div>\n\n- item\n\n  <span>\n',
      '{% endhint %}\n\n{% hint style="info" %}\ny\n{% endhint %}\n',
    ];
    for (const markdown of samples) {
      const document = markdownToDocument(markdown);
      expect(documentToMarkdown(document, markdown)).toBe(documentToMarkdown(document));
      const once = documentToMarkdown(document);
      expect(documentToMarkdown(markdownToDocument(once), once)).toBe(documentToMarkdown(markdownToDocument(once)));
    }
  });
});
