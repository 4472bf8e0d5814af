import { describe, expect, it } from 'vitest';
import { ops, type Space } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { failureOf, useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import type { SiteCustomizationInput, SiteSpaceCustomizationOverride } from '../modules/customization/customization.ts';
import { Site, type ISite } from '../modules/sites/site.entity.ts';
import { SiteSpace, type ISiteSpace } from '../modules/structure/structure.entity.ts';
import { sitesService } from '../service.ts';
import { orgActors } from '../test-support.ts';
import {
  siteCustomizationSetter,
  siteSpaceCustomizationDeleter,
  siteSpaceCustomizationOverrider,
} from './customization-commands.ts';
import { siteCreator } from './site-creator.ts';

const ORG = 'org-customization';
const { creator } = orgActors(ORG, 'org-elsewhere');
const t = useTestService(sitesService, loadSitesConfig, { label: 'customization-commands' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const t0 = new Date('2031-11-01T00:00:00Z');
let seq = 0;
/** A site with one site space (its space as the content service answers it). */
async function siteWithSpace() {
  const space = { id: `cust-space-${++seq}`, organization: ORG, title: 'Docs', updatedAt: t0.toISOString() } as Space;
  const site = await inTx((tx) =>
    siteCreator(tx, { organizationId: ORG, type: 'basic', title: 'Site', visibility: 'public', spaces: [space] }),
  );
  const siteSpace = await t.em().fork().findOneOrFail(SiteSpace, { siteId: site.id });
  return { siteId: site.id, siteSpaceId: siteSpace.id };
}
const onSiteSpace = <T>(
  siteId: string,
  siteSpaceId: string,
  fn: (tx: EntityManager, x: { site: ISite; siteSpace: ISiteSpace }) => T,
) =>
  inTx(async (tx) =>
    fn(tx, {
      site: await tx.findOneOrFail(Site, { id: siteId }),
      siteSpace: await tx.findOneOrFail(SiteSpace, { id: siteSpaceId }),
    }),
  );
const override = (siteId: string, siteSpaceId: string, patch: SiteSpaceCustomizationOverride, now = t0) =>
  onSiteSpace(siteId, siteSpaceId, (tx, x) => siteSpaceCustomizationOverrider(tx, { ...x, patch, now }));
const storedOverrides = async (siteSpaceId: string) =>
  (await t.em().fork().findOneOrFail(SiteSpace, { id: siteSpaceId })).customization;
const customizationUpdates = async (siteId: string) =>
  (await t.outboxEvents('site.updated'))
    .map((e) => e.data as { site: string; fields: string[] })
    .filter((d) => d.site === siteId && d.fields.includes('customization')).length;
const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};

describe('siteCustomizationSetter', () => {
  it("replaces the site's customization, recording site.updated; refuses one past the size limit (400)", async () => {
    const siteId = (await t.call(ops.createSite, { organizationId: ORG, title: 'Custom' }, creator)).id;
    const set = (settings: SiteCustomizationInput) =>
      inTx(async (tx) =>
        siteCustomizationSetter(tx, { site: await tx.findOneOrFail(Site, { id: siteId }), settings, now: t0 }),
      );
    await set({ styling: { primaryColor: { light: '#112233', dark: '#445566' } } } as SiteCustomizationInput);
    await set({ favicon: { emoji: '1f4d6' } } as SiteCustomizationInput);
    const site = await t.em().fork().findOneOrFail(Site, { id: siteId });
    expect(site.customization).toEqual({ favicon: { emoji: '1f4d6' } });
    expect(site.customizationUpdatedAt).toEqual(t0);
    expect(await customizationUpdates(siteId)).toBe(2);
    const huge = { header: { links: [{ title: 'x'.repeat(70_000) }] } } as unknown as SiteCustomizationInput;
    const r = await refusal(set(huge));
    expect(r.reason).toBe('invalid_input');
    expect(r.message).toMatch(/^customization: at most 65536 bytes of JSON \(\d+ given\)$/);
    expect((await t.em().fork().findOneOrFail(Site, { id: siteId })).customization).toEqual({
      favicon: { emoji: '1f4d6' },
    });
  });
});

describe('siteSpaceCustomizationOverrider and siteSpaceCustomizationDeleter', () => {
  it('lays each patch on the overrides, a group merged key by key, null removing one', async () => {
    const { siteId, siteSpaceId } = await siteWithSpace();
    await override(siteId, siteSpaceId, {
      styling: { font: 'Inter', corners: 'rounded' },
    } as SiteSpaceCustomizationOverride);
    await override(siteId, siteSpaceId, {
      styling: { corners: null },
      title: 'Handbook',
    } as SiteSpaceCustomizationOverride);
    expect(await storedOverrides(siteSpaceId)).toEqual({ styling: { font: 'Inter' }, title: 'Handbook' });
    // A group left empty goes; no overrides left: none.
    await override(siteId, siteSpaceId, { styling: { font: null }, title: null } as SiteSpaceCustomizationOverride);
    expect(await storedOverrides(siteSpaceId)).toBeNull();
    expect(await customizationUpdates(siteId)).toBe(3);
  });

  it('removes every override once, and does nothing for a site space without any', async () => {
    const { siteId, siteSpaceId } = await siteWithSpace();
    await override(siteId, siteSpaceId, { title: 'Overridden' } as SiteSpaceCustomizationOverride);
    const del = () => onSiteSpace(siteId, siteSpaceId, (tx, x) => siteSpaceCustomizationDeleter(tx, { ...x, now: t0 }));
    expect(await del()).toBe(true);
    expect(await storedOverrides(siteSpaceId)).toBeNull();
    expect(await del()).toBe(false);
    expect(await customizationUpdates(siteId)).toBe(2);
  });
});
