import { describe, expect, it } from 'vitest';
import { normalizeMarkdown } from '@quire/document/model';
import { batchRefOf, resolveBatchRefs, rewriteRefs, type BatchRefs } from './link-rewriting.ts';

const refs: BatchRefs = {
  page: (ref) => ({ guides: 'P1', 'api/auth': 'P2' })[ref],
  file: (ref) => ({ 'diagram.png': 'F1' })[ref],
};

describe('batchRefOf', () => {
  it('resolves pages (with their anchor) and files of the batch, and nothing else', () => {
    expect(batchRefOf('./guides.md', refs)).toEqual({ kind: 'url', url: '/pages/P1' });
    expect(batchRefOf('guides.md#usage', refs)).toEqual({ kind: 'url', url: '/pages/P1#usage' });
    expect(batchRefOf('./api/auth.md', refs)).toEqual({ kind: 'url', url: '/pages/P2' });
    expect(batchRefOf('./diagram.png', refs)).toEqual({ kind: 'file', file: 'F1' });
    expect(batchRefOf('./diagram.png#x', refs)).toBeUndefined();
    expect(batchRefOf('./other.md', refs)).toBeUndefined();
    expect(batchRefOf('https://example.com/guides.md', refs)).toBeUndefined();
    expect(batchRefOf('/guides.md', refs)).toBeUndefined();
  });
});

describe('rewriteRefs', () => {
  it('rewrites references only, wherever they are, and leaves the rest as it was', () => {
    const doc = {
      nodes: [{ data: { ref: { kind: 'url', url: 'a' } }, text: 'a' }, { values: { c: { kind: 'url', url: 'a' } } }],
    };
    const out = rewriteRefs(doc, (ref) =>
      ref.kind === 'url' && ref.url === 'a' ? { kind: 'page', page: 'P' } : undefined,
    );
    expect(out).toEqual({
      nodes: [
        { data: { ref: { kind: 'page', page: 'P' } }, text: 'a' },
        { values: { c: { kind: 'page', page: 'P' } } },
      ],
    });
    expect(doc.nodes[0]!.data!.ref).toEqual({ kind: 'url', url: 'a' });
  });
});

describe('resolveBatchRefs', () => {
  it('resolves links and images of the batch, never inside code', () => {
    const markdown = [
      'See [the guides](./guides.md#usage) and ![Diagram](./diagram.png "How it fits").',
      '`[inline](./guides.md)`',
      '```md\n[in code](./guides.md)\n![x](./diagram.png)\n```',
      '- [in a list](guides.md)',
      '> [quoted](./api/auth.md) and [elsewhere](./nowhere.md)',
    ].join('\n\n');
    const out = resolveBatchRefs(markdown, refs);
    expect(out).toContain('[the guides](/pages/P1#usage)');
    expect(out).toContain('![Diagram](gitbook-file:F1 "How it fits")');
    expect(out).toContain('`[inline](./guides.md)`');
    expect(out).toContain('```md\n[in code](./guides.md)\n![x](./diagram.png)\n```');
    expect(out).toContain('[in a list](/pages/P1)');
    expect(out).toContain('[quoted](/pages/P2)');
    expect(out).toContain('[elsewhere](./nowhere.md)');
  });

  it('gives the normalised markdown when nothing of the batch is referenced, raw text included', () => {
    const markdown = '{% unknown a="1" %}\n\n<div>raw</div>\n\n[x](./nowhere.md)\n\n{% endhint %}\n';
    expect(resolveBatchRefs(markdown, refs)).toBe(normalizeMarkdown(markdown));
    expect(resolveBatchRefs(`${markdown}\n[y](./guides.md)\n`, refs)).toBe(
      normalizeMarkdown(`${markdown}\n[y](/pages/P1)\n`),
    );
  });
});
