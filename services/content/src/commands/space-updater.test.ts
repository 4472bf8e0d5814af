import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { buildCollection, buildSpace, failureOf, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { spaceUpdater, type SpaceUpdaterProps } from './space-updater.ts';

const ORG = 'updates';
const t = useTestService(contentService, loadContentConfig, { label: 'space-updater' });

const update = (spaceId: string, props: Omit<SpaceUpdaterProps, 'space'>) =>
  t
    .em()
    .transactional(async (tx: EntityManager) =>
      spaceUpdater(tx, { space: await tx.findOneOrFail(Space, { id: spaceId }), ...props }),
    );
const stored = (id: string) => t.em().findOneOrFail(Space, { id });
const updates = async (spaceId: string) =>
  (await t.outboxEvents('space.updated'))
    .map((e) => e.data as { space: string; fields: string[]; title: string; parent?: string })
    .filter((d) => d.space === spaceId);

describe('spaceUpdater', () => {
  it('changes only what differs and names those fields in one space.updated', async () => {
    const space = await buildSpace(t, { org: ORG, title: 'Docs' });
    const at = new Date('2031-07-01T00:00:00Z');
    await update(space.id, { title: 'Docs', editMode: 'live' });
    expect(await updates(space.id)).toEqual([]);
    await update(space.id, {
      title: 'Handbook',
      editMode: 'locked',
      visibility: 'public',
      defaultLevel: 'read',
      now: at,
    });
    expect(await stored(space.id)).toMatchObject({
      title: 'Handbook',
      editMode: 'locked',
      visibility: 'public',
      defaultLevel: 'read',
      updatedAt: at,
    });
    expect(await updates(space.id)).toEqual([
      expect.objectContaining({ title: 'Handbook', fields: ['title', 'editMode', 'defaultLevel', 'visibility'] }),
    ]);
    await update(space.id, { mergeRules: { type: 'inherit' } });
    expect(await updates(space.id)).toHaveLength(1);
    await update(space.id, { mergeRules: { type: 'none' } });
    expect((await stored(space.id)).mergeRules).toEqual({ type: 'none' });
    expect((await updates(space.id)).at(-1)!.fields).toEqual(['mergeRules']);
  });

  it('keeps one of an emoji and an icon; null removes either', async () => {
    const space = await buildSpace(t, { org: ORG, emoji: '1f600' });
    await update(space.id, { icon: 'book' });
    expect(await stored(space.id)).toMatchObject({ icon: 'book', emoji: '' });
    await update(space.id, { emoji: '1f4d6' });
    expect(await stored(space.id)).toMatchObject({ icon: null, emoji: '1f4d6' });
    await update(space.id, { emoji: null });
    expect(await stored(space.id)).toMatchObject({ icon: null, emoji: '' });
    expect((await updates(space.id)).map((u) => u.fields)).toEqual([['icon', 'emoji'], ['emoji', 'icon'], ['emoji']]);
  });

  it('refuses `in-collection` visibility for a space outside a collection (400), and allows it inside one', async () => {
    const top = await buildSpace(t, { org: ORG });
    const err = await failureOf(update(top.id, { visibility: 'in-collection', title: 'Changed' }));
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: 'invalid_input',
      message: 'visibility: `in-collection` is only for a space inside a collection',
    });
    expect((await stored(top.id)).title).toBe(top.title);
    const collection = await buildCollection(t, { org: ORG });
    const inside = await buildSpace(t, { org: ORG, parent: collection.id });
    await update(inside.id, { visibility: 'in-collection' });
    expect((await stored(inside.id)).visibility).toBe('in-collection');
    expect(await updates(inside.id)).toEqual([
      expect.objectContaining({ fields: ['visibility'], parent: collection.id }),
    ]);
  });
});
