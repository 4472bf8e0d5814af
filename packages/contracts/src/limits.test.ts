import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonDepth, markdownShape, TEXT_LIMITS } from './limits.ts';
import { updateChangeRequestContent } from './operations/content.ts';

const write = (document: unknown) => ({
  spaceId: 's1',
  changeRequestId: 'c1',
  changes: [
    { operation: 'insert_page', title: 'A', document: {} },
    { operation: 'insert_page', document },
  ],
});
const issuesOf = (input: unknown) => {
  const r = updateChangeRequestContent.input.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('markdownShape', () => {
  it('counts block quotes, list markers, indentation and block tags', () => {
    expect(markdownShape('# Title\n\nText [a](b) and [c].\n').nesting).toBe(0);
    expect(markdownShape('> > > a').nesting).toBe(3 + 1);
    expect(markdownShape('- a\n  - b\n    - c\n').nesting).toBe(3);
    expect(markdownShape('{% hint style="info" %}\n{% tabs %}\ntext\n{% endtabs %}\n{% endhint %}\n').nesting).toBe(2);
    expect(markdownShape('{% embed url="https://x.y" %}\n'.repeat(500)).nesting).toBe(0);
  });

  it('skips fenced code and counts open brackets per paragraph', () => {
    expect(markdownShape('```\n' + '> '.repeat(500) + '\n```\n').nesting).toBe(0);
    expect(markdownShape('['.repeat(300) + 'a' + ']('.repeat(300)).brackets).toBe(300);
    expect(markdownShape('[a]\n\n'.repeat(1000)).brackets).toBe(1);
    expect(markdownShape('\\['.repeat(500)).brackets).toBe(0);
  });

  it('is linear: a megabyte of nesting is measured in milliseconds', () => {
    const started = performance.now();
    markdownShape('>'.repeat(1_000_000));
    markdownShape('{% hint style="info" %}\n'.repeat(40_000));
    markdownShape('['.repeat(500_000) + ']('.repeat(250_000));
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('jsonDepth', () => {
  it('measures nesting iteratively, whatever the depth', () => {
    expect(jsonDepth({ a: [1, { b: 2 }] })).toBe(3);
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { nodes: [deep] };
    expect(jsonDepth(deep)).toBe(TEXT_LIMITS.jsonNesting + 1);
  });
});

describe('the content write contract', () => {
  it('answers a 400 naming the field of a document nested too deeply', () => {
    expect(issuesOf(write({ markdown: '>'.repeat(50_000) + ' a' }))).toEqual([
      'changes.1.document.markdown: nests more than 100 levels of block quotes, lists or blocks',
    ]);
    expect(issuesOf(write({ markdown: '- '.repeat(5_000) + 'a' }))[0]).toMatch(
      /^changes\.1\.document\.markdown: nests more than/,
    );
    expect(issuesOf(write({ markdown: '{% hint style="info" %}\n'.repeat(10_000) }))[0]).toMatch(
      /^changes\.1\.document\.markdown: nests/,
    );
    expect(issuesOf(write({ markdown: '['.repeat(20_000) + 'a' + ']('.repeat(20_000) }))).toEqual([
      'changes.1.document.markdown: has more than 100 `[` open at once',
    ]);
    let deep: unknown = { object: 'document', nodes: [] };
    for (let i = 0; i < 5_000; i++) deep = { object: 'block', type: 'blockquote', nodes: [deep] };
    expect(issuesOf(write({ document: deep }))).toEqual(['changes.1.document.document: nests more than 200 levels']);
  });

  it('takes documents within the limits', () => {
    expect(issuesOf(write({ markdown: '> quote\n\n- a\n  - b\n\n[link](x)' }))).toEqual([]);
    expect(issuesOf(write({ document: { object: 'document', nodes: [] } }))).toEqual([]);
    expect(z.toJSONSchema(updateChangeRequestContent.input, { io: 'input', unrepresentable: 'any' })).toBeTruthy();
  });
});

describe('search queries', () => {
  it('are refused past the word limit, naming the query', async () => {
    const { searchSpaceContent } = await import('./operations/search.ts');
    const { wordCount } = await import('./limits.ts');
    expect(wordCount('  a bc\td  ')).toBe(3);
    expect(searchSpaceContent.input.safeParse({ spaceId: 's1', query: 'w '.repeat(32) }).success).toBe(true);
    const r = searchSpaceContent.input.safeParse({ spaceId: 's1', query: 'w '.repeat(33) });
    expect(r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'query: at most 32 words',
    ]);
  });
});
