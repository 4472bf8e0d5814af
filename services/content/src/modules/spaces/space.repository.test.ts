import { describe, expect, it } from 'vitest';
import { buildSpace, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { Space } from './space.entity.ts';
import { spaceRepository } from './space.repository.ts';

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
