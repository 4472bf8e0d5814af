import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { SecretBox, type EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import { ShareLink, type IShareLink } from '../modules/share-links/share-link.entity.ts';
import { sealedShareKeyBox, shareKeyBox } from '../modules/share-links/share-key.ts';
import { Site } from '../modules/sites/site.entity.ts';
import { sitesService } from '../service.ts';
import { orgActors } from '../test-support.ts';
import { shareLinkCreator, shareLinkDeleter, shareLinkKeyRotator, shareLinkUpdater } from './share-link-commands.ts';

const ORG = 'org-share-links';
const { creator } = orgActors(ORG, 'org-elsewhere');
const t = useTestService(sitesService, loadSitesConfig, { label: 'share-link-commands' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const box = sealedShareKeyBox(new SecretBox('k'.repeat(40)), shareKeyBox('a-deployment-secret-of-at-least-32-chars'));
const newSite = async () => (await t.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator)).id;
const stored = (id: string) => t.em().fork().findOne(ShareLink, { id });
const onLink = <T>(id: string, fn: (tx: EntityManager, link: IShareLink) => T) =>
  inTx(async (tx) => fn(tx, await tx.findOneOrFail(ShareLink, { id })));

describe('share links', () => {
  it('creates an active link whose key is stored only sealed and hashed, and opens again', async () => {
    const siteId = await newSite();
    const now = new Date('2031-10-01T00:00:00Z');
    const { link, key } = await inTx(async (tx) =>
      shareLinkCreator(tx, { site: await tx.findOneOrFail(Site, { id: siteId }), name: 'Partners', box, now }),
    );
    const row = await stored(link.id);
    expect(row).toMatchObject({ siteId, name: 'Partners', active: true, createdAt: now, keyHash: box.hash(key) });
    expect(row!.keySealed).not.toContain(key);
    expect(box.open(row!.keySealed)).toBe(key);
  });

  it('renames and turns a link off and on, each only when given', async () => {
    const siteId = await newSite();
    const { link } = await inTx(async (tx) =>
      shareLinkCreator(tx, { site: await tx.findOneOrFail(Site, { id: siteId }), name: 'Old', box }),
    );
    await onLink(link.id, (tx, l) => shareLinkUpdater(tx, { link: l, name: 'New' }));
    expect(await stored(link.id)).toMatchObject({ name: 'New', active: true });
    await onLink(link.id, (tx, l) => shareLinkUpdater(tx, { link: l, active: false }));
    expect(await stored(link.id)).toMatchObject({ name: 'New', active: false });
  });

  it('rotates the key: the old one no longer matches the link; deleting it removes it', async () => {
    const siteId = await newSite();
    const first = await inTx(async (tx) =>
      shareLinkCreator(tx, { site: await tx.findOneOrFail(Site, { id: siteId }), name: 'Rotated', box }),
    );
    const rotated = await onLink(first.link.id, (tx, l) => shareLinkKeyRotator(tx, { link: l, box }));
    expect(rotated.key).not.toBe(first.key);
    expect(await t.em().count(ShareLink, { keyHash: box.hash(first.key) })).toBe(0);
    const row = await stored(first.link.id);
    expect(row?.keyHash).toBe(box.hash(rotated.key));
    expect(box.open(row!.keySealed)).toBe(rotated.key);
    await onLink(first.link.id, (tx, l) => shareLinkDeleter(tx, { link: l }));
    expect(await stored(first.link.id)).toBeNull();
  });
});
