import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { buildCollection, buildSpace, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { Collection } from '../modules/collections/collection.entity.ts';
import { memberRepository } from '../modules/members/member.repository.ts';
import { grantRepository } from '../modules/permissions/grant.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { collectionTransferrer } from './collection-transferrer.ts';

const FROM = 'transfer-from';
const TO = 'transfer-to';
const t = useTestService(contentService, loadContentConfig, { label: 'collection-transfer' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);

describe('collectionTransferrer', () => {
  it('moves the collection, its sub-tree and their spaces, last at the top of the target; grants follow its members only', async () => {
    const existing = await buildCollection(t, { org: TO, title: 'Already there' });
    const moved = await buildCollection(t, { org: FROM, title: 'Moved' });
    const sub = await buildCollection(t, { org: FROM, parent: moved.id, title: 'Sub' });
    const s1 = await buildSpace(t, { org: FROM, parent: moved.id, title: 'S1' });
    const s2 = await buildSpace(t, { org: FROM, parent: sub.id, title: 'S2' });
    const stays = await buildSpace(t, { org: FROM, title: 'Stays' });
    const now = new Date('2031-09-01T00:00:00Z');
    await inTx(async (tx) => {
      await memberRepository.upsert(tx, TO, 'u-in', 'read', now.toISOString());
      await memberRepository.upsert(tx, FROM, 'u-out', 'read', now.toISOString());
      for (const user of ['u-in', 'u-out'])
        await grantRepository.upsert(tx, 'space', s1.id, FROM, { kind: 'user', id: user }, 'edit', now);
      await grantRepository.upsert(tx, 'collection', sub.id, FROM, { kind: 'user', id: 'u-in' }, 'review', now);
      await grantRepository.upsert(tx, 'collection', moved.id, FROM, { kind: 'team', id: 'team-1' }, 'edit', now);
    });

    const result = await inTx(async (tx) =>
      collectionTransferrer(tx, {
        collection: await tx.findOneOrFail(Collection, { id: moved.id }),
        organizationId: TO,
        now,
      }),
    );
    expect(result).toMatchObject({ organizationId: TO, parentId: null, updatedAt: now });
    const em = t.em();
    const [c, d, first] = await Promise.all([
      em.findOneOrFail(Collection, { id: moved.id }),
      em.findOneOrFail(Collection, { id: sub.id }),
      em.findOneOrFail(Collection, { id: existing.id }),
    ]);
    expect(c).toMatchObject({ organizationId: TO, parentId: null });
    expect(c.order > first.order).toBe(true);
    expect(d).toMatchObject({ organizationId: TO, parentId: moved.id });
    const spaces = await em.find(Space, { id: [s1.id, s2.id, stays.id] }, { orderBy: { title: 'asc' } });
    expect(spaces.map((s) => [s.title, s.organizationId, s.parentId])).toEqual([
      ['S1', TO, moved.id],
      ['S2', TO, sub.id],
      ['Stays', FROM, null],
    ]);
    // The grants of members of the target stay (now in the target); others' and teams' are gone.
    expect(await grantRepository.roleOf(em, 'space', s1.id, { kind: 'user', id: 'u-in' })).toBe('edit');
    expect(await grantRepository.roleOf(em, 'space', s1.id, { kind: 'user', id: 'u-out' })).toBeNull();
    expect(await grantRepository.roleOf(em, 'collection', sub.id, { kind: 'user', id: 'u-in' })).toBe('review');
    expect(await grantRepository.roleOf(em, 'collection', moved.id, { kind: 'team', id: 'team-1' })).toBeNull();
    const index = await grantRepository.ofOrganization(em, TO);
    expect(index.spaces.get(s1.id)?.map((g) => g.id)).toEqual(['u-in']);

    const transferred = (await t.outboxEvents('collection.transferred')).map((e) => e.data);
    expect(transferred).toEqual([
      {
        collection: moved.id,
        organization: TO,
        previousOrganization: FROM,
        collections: expect.arrayContaining([moved.id, sub.id]),
        spaces: expect.arrayContaining([s1.id, s2.id]),
      },
    ]);
    expect((transferred[0] as { spaces: string[] }).spaces).toHaveLength(2);
    const spaceEvents = (await t.outboxEvents('space.transferred')).map((e) => e.data as Record<string, unknown>);
    expect(
      spaceEvents.map((e) => [e.space, e.title, e.organization, e.previousOrganization, e.collection]).sort(),
    ).toEqual(
      [
        [s1.id, 'S1', TO, FROM, moved.id],
        [s2.id, 'S2', TO, FROM, moved.id],
      ].sort(),
    );
  });
});
