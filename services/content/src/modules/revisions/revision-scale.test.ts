import { describe, expect, it } from 'vitest';
import type { ContentChange } from '@quire/contracts';
import { buildSpace, userActor, useTestService } from '@quire/kit/testing';
import { sql } from '@quire/kit';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { MAX_LINEAGE, writesSnapshot } from '../../commands/revision-writer.ts';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { page as snapshot } from '../merge/merge.fixtures.ts';
import { Revision } from '../spaces/space.entity.ts';
import { childrenByParent, SiblingLists, type PageRecord, type RevisionTree } from './revision-tree.ts';
import { revisionRepository } from './revision.repository.ts';

const ORG = 'org1';
const ADMIN_ID = 'admin-user';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);

const t = useTestService(contentService, loadContentConfig, { label: 'revision-scale' });

/** A change request's content edit as the API runs it. */
const edit = (spaceId: string, crId: string | undefined, changes: ContentChange[]) =>
  editContent(t, spaceId, crId, changes, ADMIN_ID);

/** The page rows a revision wrote, and its lineage's length. */
async function written(revisionId: string): Promise<{ rows: number; lineage: number }> {
  const [row] = await sql<{ n: string }>(
    t.em(),
    'select count(*) as n from :schema.revision_page where revision_id = ?',
    [revisionId],
  );
  const revision = await t.em().fork().findOneOrFail(Revision, { id: revisionId });
  return { rows: Number(row!.n), lineage: revision.lineage.length };
}

const inserts = (from: number, n: number, into?: string): ContentChange[] =>
  Array.from({ length: n }, (_, i) => ({
    operation: 'insert_page',
    title: `Page ${from + i}`,
    ...(into ? { into } : {}),
    document: { markdown: `Page ${from + i}\n\nText ${from + i}.\n` },
  }));

/** The tree as read back from the database (no cache), pages compared field by field. */
async function reread(revisionId: string) {
  const revision = await t.em().fork().findOneOrFail(Revision, { id: revisionId });
  return revisionRepository.readTree(t.em().fork(), revision);
}

describe('SiblingLists keeps the children lists as childrenByParent computes them', () => {
  it('after inserts, moves, renames and removals', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const page = (id: string, parentId: string | null, order: string): PageRecord => ({
      ...snapshot(id, { parentId, order }),
      createdAt: new Date(0),
      updatedAt: new Date(0),
    });
    const pages = new Map<string, PageRecord>();
    for (let i = 0; i < 40; i++)
      pages.set(`p${i}`, page(`p${i}`, i < 5 ? null : `p${i % 5}`, `a${Math.floor(rand() * 10)}`));
    const lists = new SiblingLists(pages, childrenByParent(pages));
    for (let step = 0; step < 150; step++) {
      const ids = [...pages.keys()];
      const pick = ids[Math.floor(rand() * ids.length)]!;
      const r = rand();
      if (r < 0.4) {
        const id = `n${step}`;
        pages.set(id, page(id, rand() < 0.3 ? null : pick, `a${Math.floor(rand() * 10)}`));
        lists.add(pages.get(id)!);
      } else if (r < 0.8) {
        // Moved or reordered (never under itself: only under a top-level page that is not it).
        const old = pages.get(pick)!;
        const tops = (lists.of(null) as PageRecord[]).filter((p) => p.id !== pick && !lists.of(pick).length);
        const parent = tops.length && rand() < 0.5 ? tops[0]!.id : old.parentId;
        lists.remove(old);
        pages.set(pick, { ...old, parentId: parent, order: `b${Math.floor(rand() * 10)}` });
        lists.add(pages.get(pick)!);
      } else if (!lists.of(pick).length) {
        lists.remove(pages.get(pick)!);
        pages.delete(pick);
      }
      const expected = childrenByParent(pages);
      const actual = lists.result();
      expect(new Map([...actual].map(([k, v]) => [k, v.map((p) => p.id)]))).toEqual(
        new Map([...expected].map(([k, v]) => [k, v.map((p) => p.id)])),
      );
    }
  });
});

describe('a change request content write costs what it changes', () => {
  it('50 inserts write 50 page rows whatever the size of the change request; snapshots are amortized', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    let cr = await edit(space.id, undefined, inserts(0, 10));
    const sections = [...(await revisionRepository.treeInSpace(t.em(), space.id, cr.revisionId)).pages.keys()];
    const perBatch: { rows: number; lineage: number; size: number }[] = [];
    let size = 10;
    for (let b = 0; b < 20; b++) {
      cr = await edit(space.id, cr.id, inserts(size, 50, b % 3 === 0 ? undefined : sections[b % sections.length]));
      size += 50;
      perBatch.push({ ...(await written(cr.revisionId)), size });
    }
    // A delta writes exactly the batch's rows, at 60 pages as at 1,000; a snapshot writes the whole tree.
    const deltas = perBatch.filter((w) => w.lineage > 1);
    const snapshots = perBatch.filter((w) => w.lineage === 1);
    expect(deltas.every((w) => w.rows === 50)).toBe(true);
    expect(snapshots.every((w) => w.rows === w.size)).toBe(true);
    // Snapshots grow geometrically: few of them, and all rows written stay within 3× the pages inserted.
    expect(snapshots.length).toBeLessThanOrEqual(6);
    const total = perBatch.reduce((n, w) => n + w.rows, 0);
    expect(total).toBeLessThanOrEqual(3 * 20 * 50);
    // Rows read for the tree stay within twice its size, and the tree read back is the one written.
    const fresh = await reread(cr.revisionId);
    expect(fresh.stored!.snapshot + fresh.stored!.deltas).toBeLessThanOrEqual(2 * size + 50);
    const cached = await revisionRepository.treeInSpace(t.em(), space.id, cr.revisionId);
    expect(fresh.pages.size).toBe(size);
    for (const [id, p] of cached.pages)
      expect({ ...fresh.pages.get(id), createdAt: 0, updatedAt: 0 }).toEqual({ ...p, createdAt: 0, updatedAt: 0 });
  }, 180_000);

  it('edits, moves and deletions are written as the pages they touch; the tree read back matches', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    let cr = await edit(space.id, undefined, [...inserts(0, 5), ...inserts(5, 20)]);
    const ids = () =>
      revisionRepository.treeInSpace(t.em(), space.id, cr.revisionId).then((tree) => [...tree.pages.values()]);
    let pages = await ids();
    cr = await edit(space.id, cr.id, inserts(100, 30, pages[0]!.id));
    pages = await ids();
    const child = pages.find((p) => p.parentId === pages[0]!.id)!;
    cr = await edit(space.id, cr.id, [
      { operation: 'update_page', page: pages[1]!.id, title: 'Renamed' },
      { operation: 'update_page', page: child.id, into: pages[2]!.id },
      { operation: 'delete_page', page: pages[3]!.id },
    ]);
    const w = await written(cr.revisionId);
    if (w.lineage > 1) expect(w.rows).toBe(3);
    const fresh = await reread(cr.revisionId);
    const cached = await revisionRepository.treeInSpace(t.em(), space.id, cr.revisionId);
    expect([...fresh.pages.keys()].sort()).toEqual([...cached.pages.keys()].sort());
    expect(fresh.pages.get(pages[1]!.id)!.title).toBe('Renamed');
    expect(fresh.pages.get(child.id)!.parentId).toBe(pages[2]!.id);
    expect(fresh.pages.has(pages[3]!.id)).toBe(false);
    // Slugs among siblings stay unique (two inserts of the same title under the same parent).
    cr = await edit(space.id, cr.id, [...inserts(500, 1, pages[0]!.id), ...inserts(500, 1, pages[0]!.id)]);
    const under = [...(await revisionRepository.treeInSpace(t.em(), space.id, cr.revisionId)).pages.values()]
      .filter((p) => p.parentId === pages[0]!.id)
      .map((p) => p.slug);
    expect(new Set(under).size).toBe(under.length);
  });

  it('a lineage is cut at MAX_LINEAGE revisions, and at deltas as large as their snapshot', () => {
    const tree = (lineage: number, stored?: { snapshot: number; deltas: number }) =>
      ({
        revision: { lineage: Array.from({ length: lineage }, (_, i) => `r${i}`) },
        pages: new Map(),
        files: new Map(),
        ...(stored ? { stored } : {}),
      }) as unknown as RevisionTree;
    expect(writesSnapshot(null, 10)).toBe(true);
    expect(writesSnapshot(tree(MAX_LINEAGE - 1, { snapshot: 20_000, deltas: 100 }), 1)).toBe(false);
    expect(writesSnapshot(tree(MAX_LINEAGE, { snapshot: 20_000, deltas: 100 }), 1)).toBe(true);
    expect(writesSnapshot(tree(3, { snapshot: 1_000, deltas: 950 }), 50)).toBe(false);
    expect(writesSnapshot(tree(3, { snapshot: 1_000, deltas: 951 }), 50)).toBe(true);
    expect(writesSnapshot(tree(3), 50_000)).toBe(false);
  });
});
