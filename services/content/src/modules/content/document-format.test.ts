import { describe, expect, it } from 'vitest';
import { page as snapshot } from '../merge/merge.fixtures.ts';
import type { PageRecord } from '../revisions/revision-tree.ts';
import { pageDocument } from './document-format.ts';

const config = {
  QUIRE_PARSE_THREADS: 1,
  QUIRE_PARSE_MEMORY_MB: 64,
  QUIRE_PARSE_TIMEOUT_MS: 5_000,
  QUIRE_PARSE_INLINE_BELOW: 1_024,
} as never;
const page: PageRecord = {
  ...snapshot('p1', { title: 'Empty', slug: 'empty' }),
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

describe('format=document', () => {
  it('converts a document once per content hash: later reads share the same (frozen) JSON document', async () => {
    // No document (no hash): nothing is read from the database.
    const ctx = { em: undefined as never, config };
    const first = await pageDocument(ctx, page, 'document');
    const second = await pageDocument(ctx, { ...page, id: 'p2' }, 'document');
    expect(first && 'document' in first).toBe(true);
    expect((second as { document: unknown }).document).toBe((first as { document: unknown }).document);
    expect(Object.isFrozen((first as { document: unknown }).document)).toBe(true);
    expect(await pageDocument(ctx, page, 'markdown')).toEqual({ markdown: '' });
  });
});
