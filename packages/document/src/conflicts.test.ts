import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSONDocumentSchema } from '@quire/contracts';
import { conflictMarkdown, conflictsIn, documentToMarkdown, markdownToDocument, normalizeMarkdown } from './index.ts';
import { doc, para } from './markdown/test-builders.ts';

describe('conflict blocks', () => {
  const markdown = conflictMarkdown([
    { title: 'main', markdown: '# Intro\n\nMain *text*.\n\n- a\n- b' },
    { title: 'change request #3', markdown: '| a |\n|---|\n| 1 |\n\n```js\nx\n```' },
  ]);

  it('writes a conflict block in GitBook tag style, sides holding their blocks', () => {
    expect(markdown).toBe(
      '{% conflict %}\n{% conflict-side title="main" %}\n# Intro\n\nMain _text_.\n\n* a\n* b\n{% endconflict-side %}\n\n' +
        '{% conflict-side title="change request #3" %}\n| a |\n| - |\n| 1 |\n\n```js\nx\n```\n{% endconflict-side %}\n' +
        '{% endconflict %}\n',
    );
  });

  it('reads it as a conflict block with one conflict-side per side', () => {
    const document = JSONDocumentSchema.parse(markdownToDocument(markdown));
    const [conflict] = document.nodes;
    expect(conflict?.type).toBe('conflict');
    if (conflict?.type !== 'conflict') return;
    expect(conflict).toMatchObject({ object: 'block', isVoid: false, data: {} });
    expect(conflict.nodes.map((side) => [side.type, side.data.title, side.nodes.map((n) => n.type)])).toEqual([
      ['conflict-side', 'main', ['heading-1', 'paragraph', 'list-unordered']],
      ['conflict-side', 'change request #3', ['table', 'code']],
    ]);
    expect(documentToMarkdown(document)).toBe(markdown);
    expect(normalizeMarkdown(markdown)).toBe(markdown);
  });

  it('keeps empty sides, and sides holding tag lines or other blocks written with tags', () => {
    const tricky = conflictMarkdown([
      { title: '', markdown: '' },
      {
        title: 'cr',
        markdown: '{% endconflict-side %}\n\n{% endconflict %}\n\n{% hint style="info" %}\nx\n{% endhint %}',
      },
    ]);
    const [conflict] = markdownToDocument(tricky).nodes;
    if (conflict?.type !== 'conflict') throw new Error('no conflict block');
    expect(conflict.nodes[0]?.nodes).toEqual([]);
    expect(conflict.nodes[1]?.nodes.map((n) => n.type)).toEqual(['paragraph', 'paragraph', 'hint']);
    expect(conflictsIn(tricky)).toBe(1);
    expect(normalizeMarkdown(tricky)).toBe(tricky);
  });

  it('escapes `"` and `\\` in titles, and titles round-trip', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }).filter((s) => !/[\r\n]/.test(s)),
        (title) => {
          const md = conflictMarkdown([
            { title, markdown: 'a' },
            { title: 'main', markdown: 'b' },
          ]);
          const [conflict] = markdownToDocument(md).nodes;
          expect(conflict?.type === 'conflict' && conflict.nodes[0]?.data.title).toBe(title);
          expect(normalizeMarkdown(md)).toBe(md);
        },
      ),
      { numRuns: 200 },
    );
    expect(conflictMarkdown([{ title: 'a "b" \\c', markdown: '' }])).toContain('title="a \\"b\\" \\\\c"');
  });

  it('counts the conflict blocks of a page, 0 once resolved', () => {
    expect(conflictsIn('# Page\n\ntext')).toBe(0);
    expect(conflictsIn(`${markdown}\ntext\n\n${markdown}`)).toBe(2);
    expect(conflictsIn('{% conflict %}\nunbalanced')).toBe(0);
    expect(
      conflictsIn('```\n{% conflict %}\n{% conflict-side title="a" %}\n{% endconflict-side %}\n{% endconflict %}\n```'),
    ).toBe(0);
  });

  it('keeps a conflict tag pair that holds something else than sides as raw text', () => {
    expect(markdownToDocument('{% conflict %}\nloose\n{% endconflict %}')).toEqual(
      doc(para('{% conflict %}'), para('loose'), para('{% endconflict %}')),
    );
  });
});
