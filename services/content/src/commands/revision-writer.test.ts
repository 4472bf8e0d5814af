import { describe, expect, it } from 'vitest';
import { sql, type EntityManager } from '@quire/kit';
import { buildSpace, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { pageSnapshot } from '../modules/merge/tree.ts';
import { documentHash, documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import type { FileRecord, PageRecord, RevisionTree } from '../modules/revisions/revision-tree.ts';
import { Revision } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { MAX_LINEAGE, revisionWriter, writesSnapshot, type RevisionWriterProps } from './revision-writer.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'revision-writer' });

const now = new Date('2031-05-01T00:00:00Z');
const page = (id: string, title = id, order = 'a0'): PageRecord => ({
  ...pageSnapshot(id, order, { parentId: null, title }),
  slug: id,
  createdAt: now,
  updatedAt: now,
});
const file = (id: string, name = `${id}.bin`): FileRecord => ({
  id,
  name,
  contentType: 'application/octet-stream',
  size: 1,
  blobKey: 'a'.repeat(64),
  width: null,
  height: null,
  createdAt: now,
});
const mapOf = <T extends { id: string }>(items: T[]) => new Map(items.map((i) => [i.id, i]));

const write = (spaceId: string, props: Partial<RevisionWriterProps> & Pick<RevisionWriterProps, 'base' | 'pages'>) =>
  t.em().transactional((tx: EntityManager) =>
    revisionWriter(tx, {
      spaceId,
      parents: props.base ? [props.base.revision.id] : [],
      type: 'edits',
      createdBy: 'u1',
      files: props.base?.files ?? new Map(),
      now,
      ...props,
    }),
  );
/** The rows a revision wrote: page id → deleted, and its file ids. */
const rowsOf = async (revisionId: string) => {
  const pages = await sql<{ page_id: string; deleted: boolean }>(
    t.em(),
    'select page_id, deleted from :schema.revision_page where revision_id = ? order by page_id',
    [revisionId],
  );
  const files = await sql<{ file_id: string }>(
    t.em(),
    'select file_id from :schema.revision_file where revision_id = ? order by file_id',
    [revisionId],
  );
  return { pages: Object.fromEntries(pages.map((r) => [r.page_id, r.deleted])), files: files.map((r) => r.file_id) };
};
/** The tree as read back from the database (not the cache). */
const reread = async (tree: RevisionTree) => {
  const revision = await t.em().findOneOrFail(Revision, { id: tree.revision.id });
  const read = await revisionRepository.readTree(t.em(), revision);
  return {
    pages: [...read.pages.values()].map((p) => `${p.id}:${p.title}`).sort(),
    files: [...read.files.keys()].sort(),
  };
};

describe('revisionWriter', () => {
  it('writes the first revision whole, then only what changed (deletions as tombstones), and reads back the same tree', async () => {
    const space = await buildSpace(t, { org: 'revs' });
    const first = await write(space.id, {
      base: null,
      pages: mapOf([page('a'), page('b'), page('c')]),
      files: mapOf([file('f')]),
    });
    expect(first.revision.lineage).toEqual([first.revision.id]);
    expect(await rowsOf(first.revision.id)).toEqual({ pages: { a: false, b: false, c: false }, files: ['f'] });
    expect(first.stored).toEqual({ snapshot: 4, deltas: 0 });

    // b renamed, c deleted, a the same (its dates alone differ: not a change), d new; the file the same.
    const second = await write(space.id, {
      base: first,
      pages: mapOf([{ ...page('a'), updatedAt: new Date() }, page('b', 'B!'), page('d')]),
    });
    expect(second.revision.lineage).toEqual([first.revision.id, second.revision.id]);
    expect(second.revision.parents).toEqual([first.revision.id]);
    expect(await rowsOf(second.revision.id)).toEqual({ pages: { b: false, c: true, d: false }, files: [] });
    expect(second.stored).toEqual({ snapshot: 4, deltas: 3 });
    expect(await reread(second)).toEqual({ pages: ['a:a', 'b:B!', 'd:d'], files: ['f'] });
  });

  it('compares only the ids it is told may have changed', async () => {
    const space = await buildSpace(t, { org: 'revs' });
    const first = await write(space.id, { base: null, pages: mapOf([page('a'), page('b')]) });
    const second = await write(space.id, {
      base: first,
      pages: mapOf([page('a', 'A!'), page('b', 'B!')]),
      changed: { pages: new Set(['a']), files: new Set() },
    });
    expect(await rowsOf(second.revision.id)).toEqual({ pages: { a: false }, files: [] });
  });

  it('writes a snapshot once the deltas along the lineage would outgrow the snapshot they build on', async () => {
    const space = await buildSpace(t, { org: 'revs' });
    let tree = await write(space.id, { base: null, pages: mapOf([page('a'), page('b')]) });
    // Each revision renames one page: 1 row of delta. Snapshot of 2 rows: deltas 1, 2 fit, the third does not.
    const lineages: number[] = [];
    for (let i = 1; i <= 4; i++) {
      tree = await write(space.id, { base: tree, pages: mapOf([page('a', `A${i}`), page('b')]) });
      lineages.push(tree.revision.lineage.length);
    }
    expect(lineages).toEqual([2, 3, 1, 2]);
    expect(await rowsOf(tree.revision.id)).toEqual({ pages: { a: false }, files: [] });
    expect(await reread(tree)).toEqual({ pages: ['a:A4', 'b:b'], files: [] });
  });

  it('stores the documents it is given, by hash', async () => {
    const space = await buildSpace(t, { org: 'revs' });
    const markdown = 'Hello, revisions.\n';
    const hash = documentHash(markdown);
    await write(space.id, {
      base: null,
      pages: mapOf([{ ...page('a'), documentHash: hash }]),
      documents: new Map([[hash, markdown]]),
    });
    const [row] = await sql<{ markdown: string }>(t.em(), 'select markdown from :schema.document where hash = ?', [
      hash,
    ]);
    expect(row?.markdown).toBe(markdown);
    expect(await documentRepository.get(t.em(), hash)).toBe(markdown);
  });
});

describe('writesSnapshot', () => {
  const base = (lineage: number, stored?: { snapshot: number; deltas: number }) =>
    ({
      revision: { lineage: Array.from({ length: lineage }, (_, i) => `r${i}`) },
      pages: new Map(),
      files: new Map(),
      ...(stored ? { stored } : {}),
    }) as unknown as RevisionTree;

  it('decides by the rows stored along the lineage, and by its length', () => {
    expect(writesSnapshot(null, 0)).toBe(true);
    expect(writesSnapshot(base(3, { snapshot: 10, deltas: 6 }), 4)).toBe(false);
    expect(writesSnapshot(base(3, { snapshot: 10, deltas: 6 }), 5)).toBe(true);
    // Unknown storage: the lineage's length alone.
    expect(writesSnapshot(base(MAX_LINEAGE - 1), 1_000_000)).toBe(false);
    expect(writesSnapshot(base(MAX_LINEAGE), 0)).toBe(true);
  });
});
