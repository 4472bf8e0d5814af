import { beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { sql, sqlRun, type EntityManager } from '@quire/kit';
import { buildSpace, eventually, orgAdmin, useTestService } from '@quire/kit/testing';
import { loadContentConfig, type ContentConfig } from '../env.ts';
import { editContent } from '../modules/change-requests/content-edit.fixtures.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { searchDocumentIndexer, spaceSearchIndexer } from './search-indexer.ts';

const ORG = 'search-idx';
const admin = orgAdmin(ORG);
const t = useTestService(contentService, loadContentConfig, { label: 'search-indexer' });
// The scheduled catch-up job is stopped; the service's event consumer still indexes what a merge changes (awaited below).
beforeAll(() => t.svc.jobs?.stop());

const config = () => (t.svc.deps.config as ContentConfig).QUIRE_SEARCH_CONFIG;
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const index = (spaceId: string) => inTx((tx) => spaceSearchIndexer(tx, { spaceId, config: config() }));
const live = async (spaceId: string) =>
  (await t.em().findOneOrFail(Space, { id: spaceId }, { refresh: true })).revisionId;
const indexedRevision = async (spaceId: string) =>
  (
    await sql<{ revision_id: string | null }>(
      t.em(),
      'select revision_id from :schema.search_space where space_id = ?',
      [spaceId],
    )
  )[0]?.revision_id;
const indexedTitles = async (spaceId: string) =>
  (
    await sql<{ title: string }>(t.em(), 'select title from :schema.search_page where space_id = ? order by title', [
      spaceId,
    ])
  ).map((r) => r.title);
/** Merges a change request of `changes` into the space, then waits until the service's consumer indexed it. */
async function merged(spaceId: string, changes: Parameters<typeof editContent>[3]) {
  const cr = await editContent(t, spaceId, undefined, changes, 'writer');
  await t.call(ops.mergeChangeRequest, { spaceId, changeRequestId: cr.id }, admin);
  const revision = await live(spaceId);
  await eventually(async () => (await indexedRevision(spaceId)) === revision, 15_000, 'the space indexed');
  return revision;
}

describe('spaceSearchIndexer', () => {
  it('brings the index from the revision it reflects to the live one: pages changed rewritten, pages gone dropped', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const first = await merged(space.id, [
      { operation: 'insert_page', title: 'Install', document: { markdown: 'Run the installer.\n' } },
      { operation: 'insert_page', title: 'Remove', document: { markdown: 'Uninstall it.\n' } },
      { operation: 'insert_page', title: 'Keep', document: { markdown: 'Unchanged.\n' } },
    ]);
    expect(await indexedTitles(space.id)).toEqual(['Install', 'Keep', 'Remove']);
    // Up to date already: nothing to write.
    expect(await index(space.id)).toEqual({ revision: first, written: 0, deleted: 0 });

    const pages = (await revisionRepository.treeInSpace(t.em(), space.id, first)).pages;
    const idOf = (title: string) => [...pages.values()].find((p) => p.title === title)!.id;
    const second = await merged(space.id, [
      { operation: 'update_page', page: idOf('Install'), title: 'Installing' },
      { operation: 'delete_page', page: idOf('Remove') },
      { operation: 'insert_page', title: 'Upgrade', document: { markdown: 'Upgrade it.\n' } },
    ]);
    expect(await indexedTitles(space.id)).toEqual(['Installing', 'Keep', 'Upgrade']);
    // The index behind by one merge (as after a missed event): exactly that merge's pages are written and dropped.
    await sqlRun(t.em(), 'update :schema.search_space set revision_id = ? where space_id = ?', [first, space.id]);
    expect(await index(space.id)).toEqual({ revision: second, written: 2, deleted: 1 });
    expect(await indexedRevision(space.id)).toBe(second);
    expect(await indexedTitles(space.id)).toEqual(['Installing', 'Keep', 'Upgrade']);
  });

  it('rewrites only the pages including a reusable content a merge changed, with its new text', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const cr = await editContent(
      t,
      space.id,
      undefined,
      [{ operation: 'insert_reusable_content', title: 'Note', document: { markdown: 'Old words.\n' } }],
      'writer',
    );
    const rc = (await revisionRepository.treeInSpace(t.em(), space.id, cr.revisionId)).reusableContents!;
    const id = [...rc.keys()][0]!;
    await editContent(
      t,
      space.id,
      cr.id,
      [
        { operation: 'insert_page', title: 'Includes', document: { markdown: `{% include "${id}" %}\n` } },
        { operation: 'insert_page', title: 'Plain', document: { markdown: 'No include.\n' } },
      ],
      'writer',
    );
    await t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin);
    const first = await live(space.id);
    await eventually(async () => (await indexedRevision(space.id)) === first, 15_000, 'the space indexed');
    const second = await merged(space.id, [
      { operation: 'update_reusable_content', reusableContent: id, document: { markdown: 'New words.\n' } },
    ]);
    // Replayed from the first revision: the page including the reusable content is the one written.
    await sqlRun(t.em(), 'update :schema.search_space set revision_id = ? where space_id = ?', [first, space.id]);
    expect(await index(space.id)).toEqual({ revision: second, written: 1, deleted: 0 });
    const bodies = await sql<{ title: string; body: string }>(
      t.em(),
      `select p.title, s.body from :schema.search_page p join :schema.search_section s on s.document_hash = p.document_hash
        where p.space_id = ? order by p.title`,
      [space.id],
    );
    expect(bodies.map((b) => [b.title, b.body])).toEqual([
      ['Includes', 'New words.'],
      ['Plain', 'No include.'],
    ]);
  });

  it('rewrites the whole index when the revision it reflects cannot be read; answers null for no space', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const revision = await merged(space.id, [
      { operation: 'insert_page', title: 'One', document: {} },
      { operation: 'insert_page', title: 'Two', document: {} },
    ]);
    await sqlRun(t.em(), 'update :schema.search_space set revision_id = ? where space_id = ?', ['gone', space.id]);
    await sqlRun(
      t.em(),
      `insert into :schema.search_page (space_id, page_id, title, path, description, ancestors, document_hash, title_tsv, tsv)
      values (?, 'stale', 'Stale', 'stale', '', '[]', null, ''::tsvector, ''::tsvector)`,
      [space.id],
    );
    expect(await index(space.id)).toEqual({ revision, written: 2, deleted: 0 });
    expect(await indexedTitles(space.id)).toEqual(['One', 'Two']);
    expect(await index('no-such-space')).toEqual({ revision: null, written: 0, deleted: 0 });
  });
});

describe('searchDocumentIndexer', () => {
  it('indexes a document once per hash, whatever the number of pages sharing it', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const revision = await merged(space.id, [
      { operation: 'insert_page', title: 'A', document: { markdown: 'Shared words.\n' } },
      { operation: 'insert_page', title: 'B', document: { markdown: 'Shared words.\n' } },
    ]);
    const hashes = [...(await revisionRepository.treeInSpace(t.em(), space.id, revision)).pages.values()].map(
      (p) => p.documentHash!,
    );
    expect(new Set(hashes).size).toBe(1);
    expect(await inTx((tx) => searchDocumentIndexer(tx, { hashes, config: config() }))).toBe(0);
    await sqlRun(t.em(), 'delete from :schema.search_document where hash = ?', [hashes[0]]);
    expect(await inTx((tx) => searchDocumentIndexer(tx, { hashes, config: config() }))).toBe(1);
    expect(await inTx((tx) => searchDocumentIndexer(tx, { hashes, config: config() }))).toBe(0);
  });
});
