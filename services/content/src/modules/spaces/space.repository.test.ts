import { describe, expect, it } from 'vitest';
import { buildCollection, buildSpace, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { Space } from './space.entity.ts';
import { spaceRepository } from './space.repository.ts';
import { grantRepository } from '../permissions/grant.repository.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'space_repo' });

describe('spaceRepository.findById', () => {
  it('answers a query a read-only snapshot with the values a mutation gets managed', async () => {
    const { id } = await buildSpace(t, { org: 'org1', title: 'Snapshot' });
    await t.em().getConnection().execute(`update content.space set ord = 'b1Z' where id = ?`, [id]);

    const em = t.em();
    const snapshot = (await spaceRepository.findById(em, id))!;
    expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);

    const managed = await t.em().transactional(async (tx) => {
      const space = (await spaceRepository.findById(tx, id))!;
      expect(tx.getUnitOfWork().getById(Space, id)).toBe(space);
      return { ...space };
    });
    expect(snapshot).toEqual(managed);
    expect(snapshot).toMatchObject({
      id,
      title: 'Snapshot',
      organizationId: 'org1',
      order: 'b1Z',
      deletedAt: null,
    });
    expect(snapshot.createdAt).toBeInstanceOf(Date);
    expect(() => {
      snapshot.title = 'lost';
    }).toThrow(TypeError);
  });

  it('writes what a command changes on the entity it loaded in a transaction', async () => {
    const { id } = await buildSpace(t, { org: 'org1', title: 'Before' });
    await t.em().transactional(async (tx) => {
      const space = (await spaceRepository.findById(tx, id))!;
      space.title = 'After';
    });
    expect((await spaceRepository.findById(t.em(), id))!.title).toBe('After');
  });
});

describe('spaceRepository.findWithFacts', () => {
  it('answers the space and the access facts factsOf reads, in one statement', async () => {
    const outer = await buildCollection(t, { org: 'org1', title: 'Outer' });
    const inner = await buildCollection(t, { org: 'org1', title: 'Inner', parent: outer.id });
    const nested = await buildSpace(t, { org: 'org1', title: 'Nested', parent: inner.id });
    const top = await buildSpace(t, { org: 'org1', title: 'Top' });
    const now = new Date();
    await t.em().transactional(async (em) => {
      await grantRepository.upsert(em, 'collection', outer.id, 'org1', { kind: 'team', id: 'docs' }, 'edit', now);
      await grantRepository.upsert(em, 'collection', inner.id, 'org1', { kind: 'user', id: 'u1' }, 'read', now);
      await grantRepository.upsert(em, 'space', nested.id, 'org1', { kind: 'user', id: 'u2' }, 'admin', now);
      await em
        .getConnection()
        .execute(`update content.collection set default_level = 'comment' where id = ?`, [outer.id]);
    });

    for (const { id } of [nested, top]) {
      const space = (await spaceRepository.findById(t.em(), id))!;
      const found = (await spaceRepository.findWithFacts(t.em(), id))!;
      expect(found.space).toEqual(space);
      expect(found.facts).toEqual(await grantRepository.factsOf(t.em(), 'space', space));
    }
    const { facts } = (await spaceRepository.findWithFacts(t.em(), nested.id))!;
    expect(facts.ancestors).toEqual(['inherit', 'comment']);
    expect(facts.grants).toEqual([
      [{ kind: 'user', id: 'u2', role: 'admin' }],
      [{ kind: 'user', id: 'u1', role: 'read' }],
      [{ kind: 'team', id: 'docs', role: 'edit' }],
    ]);
    expect(await spaceRepository.findWithFacts(t.em(), 'no-such-space')).toBeNull();
  });
});
