import { describe, expect, it } from 'vitest';
import { ops, type Space } from '@quire/contracts';
import { buildSpace } from '@quire/kit/testing';
import { Site } from '../modules/sites/site.entity.ts';
import { ContentSpace } from '../modules/spaces/content-space.entity.ts';
import { SiteSection, SiteSpace } from '../modules/structure/structure.entity.ts';
import { onSiteStructure, orgActors, refusal, useSitesAndContent } from '../test-support.ts';
import { sectionCreator } from './section-commands.ts';
import { siteSpaceAdder } from './site-space-commands.ts';
import { siteUpdater, type SiteUpdaterProps } from './site-updater.ts';

const ORG = 'org-site-updater';
const { admin, creator } = orgActors(ORG, 'org-elsewhere');
const p = useSitesAndContent('site-updater');

const onStructure = <T>(siteId: string, fn: Parameters<typeof onSiteStructure<T>>[2]) => onSiteStructure(p, siteId, fn);
const update = (siteId: string, props: Omit<SiteUpdaterProps, 'site' | 'tree'>) =>
  onStructure(siteId, (tx, x) => siteUpdater(tx, { ...x, ...props }));
const newSite = async (title = 'Site') =>
  (await p.sites.call(ops.createSite, { organizationId: ORG, title }, creator)).id;
const space = (title: string): Promise<Space> => buildSpace(p.content, { org: ORG, title, as: admin });
const updatedFields = async (siteId: string) =>
  (await p.sites.outboxEvents('site.updated'))
    .map((e) => e.data as { site: string; fields: string[] })
    .filter((d) => d.site === siteId)
    .map((d) => d.fields);

describe('siteUpdater', () => {
  it('records the settings that changed, and nothing when none did', async () => {
    const siteId = await newSite('Plain');
    const site = await p.sites.em().findOneOrFail(Site, { id: siteId });
    await update(siteId, { title: 'Plain', basename: site.basename });
    expect(await updatedFields(siteId)).toEqual([]);
    await update(siteId, {
      title: 'Renamed',
      visibility: 'unlisted',
      basename: 'renamed-site',
      adaptiveContent: { enabled: true },
      proxy: 'https://docs.example.test/help',
    });
    expect(await p.sites.em().findOneOrFail(Site, { id: siteId })).toMatchObject({
      title: 'Renamed',
      visibility: 'unlisted',
      basename: 'renamed-site',
      adaptiveEnabled: true,
      proxyOrigin: 'https://docs.example.test/help',
    });
    expect(await updatedFields(siteId)).toEqual([['title', 'visibility', 'basename', 'adaptiveContent', 'proxy']]);
  });

  it('refuses a basename another site uses, or a hostname another site has proven (409)', async () => {
    const taken = await newSite('Taken');
    await update(taken, { basename: 'taken-name', hostname: 'docs.taken.test' });
    const siteId = await newSite('Other');
    expect(await refusal(update(siteId, { basename: 'taken-name', title: 'Changed' }))).toEqual({
      reason: 'conflict',
      message: 'basename: another site already uses "taken-name"',
    });
    // Only claimed elsewhere: this site may claim it too, unverified with a token of its own.
    await update(siteId, { hostname: 'docs.taken.test' });
    const claimed = await p.sites.em().findOneOrFail(Site, { id: siteId });
    expect(claimed).toMatchObject({ hostname: 'docs.taken.test', hostnameVerified: false, title: 'Other' });
    expect(claimed.hostnameToken).toMatch(/^[0-9a-f]{32}$/);
    await p.sites.em().nativeUpdate(Site, { id: taken }, { hostnameVerified: true });
    const third = await newSite('Third');
    expect(await refusal(update(third, { hostname: 'docs.taken.test' }))).toEqual({
      reason: 'conflict',
      message: 'hostname: another site already uses docs.taken.test',
    });
    await update(siteId, { hostname: null });
    expect(await p.sites.em().findOneOrFail(Site, { id: siteId })).toMatchObject({
      hostname: null,
      hostnameToken: null,
    });
  });

  it('sets the default section and the default site space of the default section, refusing others (400)', async () => {
    const siteId = await newSite('Sections');
    const [a, b, c] = [await space('Alpha'), await space('Beta'), await space('Gamma')];
    const first = await onStructure(siteId, (tx, x) => sectionCreator(tx, { ...x, space: a }));
    const second = await onStructure(siteId, (tx, x) => sectionCreator(tx, { ...x, space: b }));
    const extra = await onStructure(siteId, (tx, x) => siteSpaceAdder(tx, { ...x, level: first.id, space: c }));
    const inSecond = (await p.sites.em().findOneOrFail(SiteSpace, { sectionId: second.id })).id;
    expect(await refusal(update(siteId, { defaultSiteSection: 'nope' }))).toEqual({
      reason: 'invalid_input',
      message: 'defaultSiteSection: no section nope on this site',
    });
    expect(await refusal(update(siteId, { defaultSiteSpace: 'nope' }))).toEqual({
      reason: 'invalid_input',
      message: 'defaultSiteSpace: no site space nope on this site',
    });
    expect(await refusal(update(siteId, { defaultSiteSpace: inSecond }))).toEqual({
      reason: 'invalid_input',
      message: `defaultSiteSpace: site space ${inSecond} is not in the default section`,
    });
    await p.sites.em().nativeUpdate(ContentSpace, { id: c.id }, { deletedAt: new Date() });
    expect(await refusal(update(siteId, { defaultSiteSpace: extra.id }))).toEqual({
      reason: 'invalid_input',
      message: `defaultSiteSpace: the space of site space ${extra.id} is deleted`,
    });
    await p.sites.em().nativeUpdate(ContentSpace, { id: c.id }, { deletedAt: null });
    const before = (await updatedFields(siteId)).length;
    await update(siteId, { defaultSiteSpace: extra.id });
    await update(siteId, { defaultSiteSection: second.id });
    await update(siteId, { defaultSiteSection: second.id });
    expect((await updatedFields(siteId)).slice(before)).toEqual([['defaultSiteSpace'], ['defaultSiteSection']]);
    const sections = await p.sites.em().find(SiteSection, { siteId }, { orderBy: { order: 'asc' } });
    expect(sections.map((s) => s.isDefault)).toEqual([false, true]);
    expect((await p.sites.em().findOneOrFail(SiteSpace, { id: extra.id })).isDefault).toBe(true);
    // Now the default section is the second: a site space of the first is refused.
    expect(await refusal(update(siteId, { defaultSiteSpace: extra.id }))).toEqual({
      reason: 'invalid_input',
      message: `defaultSiteSpace: site space ${extra.id} is not in the default section`,
    });
  });
});
