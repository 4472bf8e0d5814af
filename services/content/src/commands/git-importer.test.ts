import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { buildSpace, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { ChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import type { PlannedTree } from '../modules/git/tree-plan.ts';
import { pageSnapshot } from '../modules/merge/tree.ts';
import { documentHash, documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import type { PageRecord, RevisionTree } from '../modules/revisions/revision-tree.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { gitConflictImporter, gitImporter } from './git-importer.ts';

const ORG = 'git-importer';
const t = useTestService(contentService, loadContentConfig, { label: 'git-importer' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const now = new Date('2031-06-01T00:00:00Z');

/** What a repository read plans: pages (id → title and markdown), each a top-level document page. */
function planOf(pages: Record<string, [title: string, markdown: string]>, changed = true): PlannedTree {
  const plan: PlannedTree = { pages: new Map(), files: new Map(), documents: new Map(), changed };
  Object.entries(pages).forEach(([id, [title, markdown]], i) => {
    const hash = documentHash(markdown);
    plan.documents.set(hash, markdown);
    const page: PageRecord = {
      ...pageSnapshot(id, `a${i}`, { title, slug: id, documentHash: hash }),
      createdAt: now,
      updatedAt: now,
    };
    plan.pages.set(id, page);
  });
  return plan;
}

const spaceRow = (id: string) => t.em().findOneOrFail(Space, { id }, { refresh: true });
const headOf = async (spaceId: string): Promise<RevisionTree> =>
  revisionRepository.treeInSpace(t.em(), spaceId, (await spaceRow(spaceId)).revisionId);
/** The pages of a revision as `id: title = markdown`. */
const contentOf = async (spaceId: string, revisionId: string) => {
  const tree = await revisionRepository.treeInSpace(t.em(), spaceId, revisionId);
  const out: string[] = [];
  for (const p of [...tree.pages.values()].sort((a, b) => (a.order < b.order ? -1 : 1))) {
    const doc = p.documentHash ? await documentRepository.get(t.em(), p.documentHash) : '';
    out.push(`${p.id}: ${p.title} = ${doc?.trim()}`);
  }
  return out;
};
const crsOf = (spaceId: string) => t.em().find(ChangeRequest, { spaceId }, { orderBy: { number: 'asc' } });
const spaceEvents = async (type: string, spaceId: string) =>
  (await t.outboxEvents(type)).map((e) => e.data as Record<string, unknown>).filter((d) => d.space === spaceId);

const importInto = (spaceId: string, plan: PlannedTree, opts: { standalone?: boolean; subject?: string } = {}) =>
  inTx(async (tx) => {
    const space = await tx.findOneOrFail(Space, { id: spaceId });
    const head = await revisionRepository.treeInSpace(tx, spaceId, space.revisionId);
    return gitImporter(tx, {
      space,
      head,
      plan,
      userId: 'git-user',
      standalone: opts.standalone ?? false,
      subject: opts.subject ?? 'Import of https://git.example/r.git at abc123',
      now,
    });
  });

describe('gitImporter', () => {
  it('writes nothing for a plan that changes nothing', async () => {
    const space = await buildSpace(t, { org: ORG });
    const before = (await spaceRow(space.id)).revisionId;
    expect(await importInto(space.id, planOf({ intro: ['Intro', 'Hello'] }, false))).toBeNull();
    expect((await spaceRow(space.id)).revisionId).toBe(before);
    expect(await crsOf(space.id)).toEqual([]);
  });

  it('merges an import through a change request of its own, named after it, as any merge', async () => {
    const space = await buildSpace(t, { org: ORG });
    const long = `Import of https://git.example/${'r'.repeat(120)}.git at abc123`;
    const revision = await importInto(space.id, planOf({ intro: ['Intro', 'Hello from Git'] }), { subject: long });
    expect((await spaceRow(space.id)).revisionId).toBe(revision);
    expect(await contentOf(space.id, revision!)).toEqual(['intro: Intro = Hello from Git']);
    const [cr] = await crsOf(space.id);
    expect(cr).toMatchObject({ status: 'merged', subject: long.slice(0, 100), createdBy: 'git-user' });
    expect((await spaceEvents('space.content-updated', space.id)).at(-1)).toMatchObject({ revision });
    expect((await spaceEvents('change-request.merged', space.id)).map((d) => d.changeRequest)).toEqual([cr!.id]);
  });

  it('writes a standalone import as one revision outside the main line, the space unchanged', async () => {
    const space = await buildSpace(t, { org: ORG });
    await importInto(space.id, planOf({ intro: ['Intro', 'Main text'] }));
    const main = (await spaceRow(space.id)).revisionId;
    const revision = await importInto(space.id, planOf({ intro: ['Intro', 'Standalone text'] }), { standalone: true });
    expect(revision).not.toBe(main);
    expect((await spaceRow(space.id)).revisionId).toBe(main);
    expect(await contentOf(space.id, revision!)).toEqual(['intro: Intro = Standalone text']);
    expect(await contentOf(space.id, main)).toEqual(['intro: Intro = Main text']);
    expect(await crsOf(space.id)).toHaveLength(1);
  });
});

describe('gitConflictImporter', () => {
  /** A space whose main holds `base`, then moved on to `main`: the remote's content is planned against `base`. */
  async function diverged(base: PlannedTree, main: PlannedTree) {
    const space = await buildSpace(t, { org: ORG });
    await importInto(space.id, base);
    const synced = await headOf(space.id);
    await importInto(space.id, main);
    const remote = (plan: PlannedTree) =>
      inTx(async (tx) =>
        gitConflictImporter(tx, {
          space: await tx.findOneOrFail(Space, { id: space.id }),
          base: synced,
          plan,
          userId: 'git-user',
          subject: 'Import of https://git.example/r.git at def456',
          now,
        }),
      );
    return { spaceId: space.id, synced, remote };
  }

  it('merges the remote side at once when both sides changed different pages', async () => {
    const { spaceId, remote } = await diverged(
      planOf({ a: ['A', 'Alpha'], b: ['B', 'Beta'] }),
      planOf({ a: ['A', 'Alpha from Quire'], b: ['B', 'Beta'] }),
    );
    const r = await remote(planOf({ a: ['A', 'Alpha'], b: ['B', 'Beta from Git'] }));
    expect(r.merged).not.toBeNull();
    expect((await spaceRow(spaceId)).revisionId).toBe(r.merged);
    expect(await contentOf(spaceId, r.merged!)).toEqual(['a: A = Alpha from Quire', 'b: B = Beta from Git']);
    // The remote's content as it is, for the next sync's merge base.
    expect(await contentOf(spaceId, r.remoteRevision)).toEqual(['a: A = Alpha', 'b: B = Beta from Git']);
    expect(await t.em().findOneOrFail(ChangeRequest, { id: r.changeRequest })).toMatchObject({ status: 'merged' });
  });

  it('leaves the change request open, main unchanged and both sides kept, when the two sides conflict', async () => {
    const { spaceId, remote } = await diverged(planOf({ a: ['A', 'Alpha'] }), planOf({ a: ['A', 'Alpha from Quire'] }));
    const main = (await spaceRow(spaceId)).revisionId;
    const r = await remote(planOf({ a: ['A', 'Alpha from Git'] }));
    expect(r.merged).toBeNull();
    expect((await spaceRow(spaceId)).revisionId).toBe(main);
    expect(await contentOf(spaceId, main)).toEqual(['a: A = Alpha from Quire']);
    expect(await contentOf(spaceId, r.remoteRevision)).toEqual(['a: A = Alpha from Git']);
    const cr = await t.em().findOneOrFail(ChangeRequest, { id: r.changeRequest }, { refresh: true });
    expect(cr).toMatchObject({ status: 'open', subject: 'Import of https://git.example/r.git at def456' });
    // Brought up to date with main: its content holds both sides of the conflict.
    const [page] = await contentOf(spaceId, cr.revisionId);
    expect(page).toContain('Alpha from Quire');
    expect(page).toContain('Alpha from Git');
  });
});
