import { describe, expect, it } from 'vitest';
import { ops, type ContentChange } from '@quire/contracts';
import { sql } from '@quire/kit';
import { buildSpace, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { ChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { isWellFormed } from '../modules/merge/index.ts';
import { childrenIndex } from '../modules/revisions/revision-tree.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { editContent } from '../modules/change-requests/content-edit.fixtures.ts';

const ORG = 'org1';
const ADMIN_ID = 'admin-user';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);

const t = useTestService(contentService, loadContentConfig, { label: 'merge-cost' });

/** Every page (or file) a merge looks at in a tree: lookups by id, and entries walked by any iteration. */
const seen = { lookups: 0, walked: 0 };

/** An iterator counting what it walks. */
function walking<T>(entries: Iterable<T>): MapIterator<T> {
  function* walk() {
    for (const entry of entries) {
      seen.walked++;
      yield entry;
    }
  }
  return walk() as unknown as MapIterator<T>;
}

/** A tree's map that counts what is looked at in it. */
class CountingMap<K, V> extends Map<K, V> {
  override get(key: K): V | undefined {
    seen.lookups++;
    return super.get(key);
  }
  override has(key: K): boolean {
    seen.lookups++;
    return super.has(key);
  }
  override entries(): MapIterator<[K, V]> {
    return walking(super.entries());
  }
  override keys(): MapIterator<K> {
    return walking(super.keys());
  }
  override values(): MapIterator<V> {
    return walking(super.values());
  }
  override [Symbol.iterator](): MapIterator<[K, V]> {
    return walking(super.entries());
  }
  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void): void {
    for (const [key, value] of walking(super.entries())) fn(value, key, this);
  }
}

/** A change request's content edit as the API runs it. */
const edit = (spaceId: string, crId: string | undefined, changes: ContentChange[]) =>
  editContent(t, spaceId, crId, changes, ADMIN_ID);

const merge = async (spaceId: string, cr: { id: string }) =>
  (await t.call(ops.mergeChangeRequest, { spaceId, changeRequestId: cr.id }, admin)).result;

/** A live space of `sections` sections of 100 pages (a section page and 99 pages in it). */
async function spaceOf(sections: number) {
  const space = await buildSpace(t, { org: ORG, as: admin });
  const titles = Array.from(
    { length: sections },
    (_, s): ContentChange => ({
      operation: 'insert_page',
      title: `Section ${s}`,
      document: { markdown: `Section ${s}\n` },
    }),
  );
  let cr = await edit(space.id, undefined, titles);
  const sectionIds = [...(await revisionRepository.treeInSpace(t.em(), space.id, cr.revisionId)).pages.keys()];
  for (const [s, into] of sectionIds.entries()) {
    const pages = Array.from(
      { length: 99 },
      (_, i): ContentChange => ({
        operation: 'insert_page',
        title: `Page ${s}.${i}`,
        into,
        document: { markdown: `Page ${s}.${i}\n\nFirst paragraph.\n\nSecond paragraph.\n` },
      }),
    );
    cr = await edit(space.id, cr.id, pages);
  }
  expect(await merge(space.id, cr)).toBe('merge');
  const main = await revisionRepository.treeInSpace(t.em(), space.id, (await current(space.id)).revisionId);
  expect(main.pages.size).toBe(sections * 100);
  const leaves = [...main.pages.values()].filter((p) => p.parentId !== null).map((p) => p.id);
  return { spaceId: space.id, leaves };
}

const current = (spaceId: string) => t.em().fork().findOneOrFail(Space, { id: spaceId });

const setText = (page: string, markdown: string): ContentChange => ({
  operation: 'update_page',
  page,
  document: { markdown },
});
const editing = (pageIds: string[], text: string) => pageIds.map((page) => setText(page, `${text}\n\nA paragraph.\n`));

async function live(spaceId: string, pageId: string): Promise<string> {
  const page = await t.call(ops.getPageById, { spaceId, pageId, format: 'markdown' }, admin);
  return (page as { markdown?: string }).markdown ?? '';
}

/**
 * Puts counting maps in place of these revisions' cached trees (their per-tree indexes computed, as for any tree),
 * once the search index (which reads the live tree after each merge, on its own) has caught up with the live revision.
 */
async function counted(spaceId: string, revisionIds: string[]) {
  const live = (await current(spaceId)).revisionId;
  for (let tries = 0; ; tries++) {
    const [row] = await sql<{ revision_id: string }>(
      t.em().fork(),
      'select revision_id from :schema.search_space where space_id = ?',
      [spaceId],
    );
    if (row?.revision_id === live) break;
    if (tries > 600) throw new Error('the search index did not catch up');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const id of new Set(revisionIds)) {
    const tree = await revisionRepository.treeInSpace(t.em(), spaceId, id);
    const pages = new CountingMap(tree.pages);
    isWellFormed(pages);
    childrenIndex(pages);
    revisionRepository.prime({ ...tree, pages, files: new CountingMap(tree.files) });
  }
  seen.lookups = 0;
  seen.walked = 0;
}

/** What merging a change request editing 10 pages looks at: straight onto main, then on a main that moved on. */
async function mergeCosts(sections: number) {
  const { spaceId, leaves } = await spaceOf(sections);
  const pick = (from: number) => Array.from({ length: 10 }, (_, i) => leaves[(from + i * 7) % leaves.length]!);

  // Straight onto main (its base): the change request's head becomes main.
  const direct = await edit(spaceId, undefined, editing(pick(0), 'Direct'));
  await counted(spaceId, [(await current(spaceId)).revisionId, direct.revisionId]);
  expect(await merge(spaceId, direct)).toBe('merge');
  const straight = { ...seen };

  // Three-way: another change request is merged first (10 other pages, and one page edited here too, in another
  // paragraph), so main moved on since this one's base.
  const shared = pick(1)[0]!;
  const original = await live(spaceId, shared);
  const late = await edit(spaceId, undefined, [
    ...editing(pick(1).slice(1), 'Late'),
    setText(shared, original.replace('First paragraph', 'First paragraph, late')),
  ]);
  const early = await edit(spaceId, undefined, [
    ...editing(pick(2), 'Early'),
    setText(shared, original.replace('Second paragraph', 'Second paragraph, early')),
  ]);
  expect(await merge(spaceId, early)).toBe('merge');
  const base = (await t.em().fork().findOneOrFail(ChangeRequest, { id: late.id })).revisionInitial;
  await counted(spaceId, [(await current(spaceId)).revisionId, late.revisionId, base]);
  expect(await merge(spaceId, late)).toBe('merge');
  const threeWay = { ...seen };

  // The page edited on both sides holds both edits.
  expect(await live(spaceId, shared)).toBe(
    original.replace('First paragraph', 'First paragraph, late').replace('Second paragraph', 'Second paragraph, early'),
  );
  return { straight, threeWay, pages: sections * 100 };
}

describe('a merge costs what the change request changed, not the size of the space', () => {
  it('merging 10 edited pages looks at as many pages in a 2,000-page space as in a 100-page one', {
    timeout: 600_000,
  }, async () => {
    const small = await mergeCosts(1);
    const big = await mergeCosts(20);
    console.log(`pages looked at by a merge of 10 edited pages: ${JSON.stringify({ small, big })}`);
    for (const { straight, threeWay, pages } of [small, big]) {
      // Straight onto main: the changed pages' records (a few lookups each), nothing walked.
      expect(straight.walked).toBe(0);
      expect(straight.lookups).toBeLessThanOrEqual(100);
      // Three-way: the pages changed on either side and their siblings (looked at in main's children lists); the
      // new tree is main's map copied once (one walk of main's entries, a copy of references).
      expect(threeWay.lookups).toBeLessThanOrEqual(400);
      expect(threeWay.walked).toBeLessThanOrEqual(pages);
    }
    expect(big.straight.lookups).toBeLessThanOrEqual(small.straight.lookups * 1.5);
    expect(big.threeWay.lookups).toBeLessThanOrEqual(small.threeWay.lookups * 1.5);
  });
});
