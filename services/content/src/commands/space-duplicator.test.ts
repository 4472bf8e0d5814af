import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { buildCollection, buildSpace, orgAdmin, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { editContent } from '../modules/change-requests/content-edit.fixtures.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { duplicateTitle, spaceDuplicator } from './space-duplicator.ts';

const ORG = 'dups';
const admin = orgAdmin(ORG);
const t = useTestService(contentService, loadContentConfig, { label: 'space-duplicator' });

const duplicate = (id: string, now?: Date) =>
  t
    .em()
    .transactional(async (tx: EntityManager) =>
      spaceDuplicator(tx, { source: await tx.findOneOrFail(Space, { id }), ...(now ? { now } : {}) }),
    );
const stored = (id: string) => t.em().findOneOrFail(Space, { id });

describe('duplicateTitle', () => {
  it('prefixes "Copy of" and cuts at 50 characters, never inside a character', () => {
    expect(duplicateTitle('Guide')).toBe('Copy of Guide');
    expect(duplicateTitle('x'.repeat(50))).toBe(`Copy of ${'x'.repeat(42)}`);
    const emoji = `${'y'.repeat(41)}😀😀`;
    expect(Array.from(duplicateTitle(emoji))).toHaveLength(50);
    expect(duplicateTitle(emoji).endsWith('😀')).toBe(true);
  });
});

describe('spaceDuplicator', () => {
  it('copies the settings and the current content, right after the source in its parent, with fresh counters', async () => {
    const collection = await buildCollection(t, { org: ORG });
    const source = await buildSpace(t, { org: ORG, parent: collection.id, title: 'Source', emoji: '1f4d6' });
    const next = await buildSpace(t, { org: ORG, parent: collection.id, title: 'Next' });
    await t.call(ops.updateSpaceById, { spaceId: source.id, visibility: 'in-collection', defaultLevel: 'read' }, admin);
    const cr = await editContent(
      t,
      source.id,
      undefined,
      [{ operation: 'insert_page', title: 'Page', document: { markdown: 'Body.\n' } }],
      'u1',
    );
    await t.call(ops.mergeChangeRequest, { spaceId: source.id, changeRequestId: cr.id }, admin);
    await t.em().nativeUpdate(Space, { id: source.id }, { editMode: 'locked' });
    const now = new Date('2031-08-01T00:00:00Z');

    const copy = await duplicate(source.id, now);
    const [src, dup, after] = await Promise.all([stored(source.id), stored(copy.id), stored(next.id)]);
    expect(dup).toMatchObject({
      organizationId: ORG,
      parentId: collection.id,
      title: 'Copy of Source',
      emoji: '1f4d6',
      visibility: 'in-collection',
      editMode: 'locked',
      defaultLevel: 'read',
      comments: 0,
      changeRequests: 0,
      changeRequestSeq: 0,
      createdAt: now,
      deletedAt: null,
    });
    expect(src.order < dup.order && dup.order < after.order).toBe(true);
    expect(dup.revisionId).not.toBe(src.revisionId);

    const [before, copied] = await Promise.all([
      revisionRepository.treeInSpace(t.em(), src.id, src.revisionId),
      revisionRepository.treeInSpace(t.em(), dup.id, dup.revisionId),
    ]);
    expect([...copied.pages.values()].map((p) => [p.id, p.title, p.documentHash])).toEqual(
      [...before.pages.values()].map((p) => [p.id, p.title, p.documentHash]),
    );
    expect(copied.revision).toMatchObject({ parents: [], lineage: [copied.revision.id], createdBy: null });
    const created = (await t.outboxEvents('space.created')).filter(
      (e) => (e.data as { space: string }).space === copy.id,
    );
    expect(created.map((e) => e.data)).toEqual([
      {
        space: copy.id,
        organization: ORG,
        title: 'Copy of Source',
        duplicatedFrom: source.id,
        parent: collection.id,
      },
    ]);
  });
});
