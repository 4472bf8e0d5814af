import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { buildSpace, failureOf } from '@quire/kit/testing';
import { orgActors, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import { DEFAULT_CUSTOMIZATION } from './customization.ts';

const ORG = 'org-c';
const { creator, reader, stranger } = orgActors(ORG, 'org-other');

const p = useSitesAndContent('customization');
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);

async function site(title: string) {
  const a = await buildSpace(p.content, { org: ORG, title: 'Guide', as: creator });
  const b = await buildSpace(p.content, { org: ORG, title: 'Reference', as: creator });
  const s = await call(ops.createSite, { organizationId: ORG, title, spaces: [a.id, b.id] }, creator);
  const spaces = await call(ops.listSiteSpaces, { organizationId: ORG, siteId: s.id }, creator);
  return { siteId: s.id, siteSpaces: spaces.items.map((t) => t.id) };
}

describe('site customization', () => {
  it('answers the defaults until set, then what was set with the defaults for the rest (a full replacement)', async () => {
    const { siteId } = await site('Branded');
    const fresh = await call(ops.getSiteCustomizationById, { organizationId: ORG, siteId }, reader);
    expect(fresh).toEqual(DEFAULT_CUSTOMIZATION);
    expect(fresh.updatedAt).toBeUndefined();
    const set = await call(
      ops.updateSiteCustomizationById,
      {
        organizationId: ORG,
        siteId,
        title: 'Branded Docs',
        favicon: { emoji: '🚀' },
        styling: { primaryColor: { light: '#0B6E4F', dark: '#6FD3A8' } },
        header: { links: [{ title: 'Home', to: { kind: 'url', url: 'https://example.com' }, links: [] }] },
        footer: { copyright: '© Example' },
      },
      creator,
    );
    expect(set).toMatchObject({
      title: 'Branded Docs',
      favicon: { emoji: '🚀' },
      styling: { ...DEFAULT_CUSTOMIZATION.styling, primaryColor: { light: '#0B6E4F', dark: '#6FD3A8' } },
      header: { preset: 'default', links: [{ title: 'Home' }] },
      footer: { groups: [], copyright: '© Example' },
      trademark: { enabled: true },
    });
    expect(set.updatedAt).toEqual(expect.any(String));
    expect(await call(ops.getSiteCustomizationById, { organizationId: ORG, siteId }, reader)).toEqual(set);
    // A full replacement: what the next request leaves out is back to its default.
    const again = await call(ops.updateSiteCustomizationById, { organizationId: ORG, siteId, favicon: {} }, creator);
    expect(again.title).toBeUndefined();
    expect(again.styling).toEqual(DEFAULT_CUSTOMIZATION.styling);
    expect(again.favicon).toEqual({});
    const events = await p.sites.outboxEvents('site.updated');
    expect(events.some((e) => (e.data as { fields: string[] }).fields.includes('customization'))).toBe(true);
  });

  it('refuses what GitBook does not allow (400 naming the field), too much JSON, readers and strangers', async () => {
    const { siteId } = await site('Strict');
    const put = (body: Record<string, unknown>, as = creator) =>
      failureOf(call(ops.updateSiteCustomizationById, { organizationId: ORG, siteId, ...body } as never, as));
    const colour = await put({ styling: { primaryColor: { light: 'red;}body{', dark: '#000' } } });
    expect(colour.reason).toBe('invalid_input');
    expect(colour.message).toMatch(/styling\.primaryColor\.light/);
    expect((await put({ favicon: { icon: { light: 'not a url', dark: 'x' } } })).message).toMatch(/favicon/);
    expect((await put({ favicon: { emoji: '<b>' } })).message).toMatch(/favicon/);
    expect((await put({ styling: { theme: 'neon' } })).message).toMatch(/styling\.theme/);
    const long = 'https://example.com/'.padEnd(2000, 'x');
    const links = Array.from({ length: 20 }, (_, i) => ({ title: `L${i}`, to: { kind: 'url', url: long } }));
    const big = await put({ footer: { groups: Array.from({ length: 3 }, (_, i) => ({ title: `G${i}`, links })) } });
    expect(big.message).toMatch(/^customization: at most 65536 bytes of JSON/);
    expect((await put({ title: 'Nope' }, reader)).reason).toBe('forbidden');
    expect((await put({ title: 'Nope' }, stranger)).reason).toBe('not_found');
  });

  it('overrides fields on a site space: null removes one, DELETE removes them all', async () => {
    const { siteId, siteSpaces } = await site('Variants');
    const [first, second] = siteSpaces;
    await call(
      ops.updateSiteCustomizationById,
      { organizationId: ORG, siteId, title: 'Site title', favicon: { emoji: '📘' } },
      creator,
    );
    const over = await call(
      ops.overrideSiteSpaceCustomizationById,
      {
        organizationId: ORG,
        siteId,
        siteSpaceId: second!,
        title: 'Reference title',
        styling: { primaryColor: { light: '#AA0000', dark: '#FF8888' } },
        trademark: { enabled: false },
      },
      creator,
    );
    expect(over).toMatchObject({
      title: 'Reference title',
      favicon: { emoji: '📘' },
      styling: { theme: 'clean', primaryColor: { light: '#AA0000', dark: '#FF8888' } },
      trademark: { enabled: false },
    });
    const other = await call(
      ops.getSiteSpaceCustomizationById,
      { organizationId: ORG, siteId, siteSpaceId: first! },
      reader,
    );
    expect(other.title).toBe('Site title');
    const cleared = await call(
      ops.overrideSiteSpaceCustomizationById,
      { organizationId: ORG, siteId, siteSpaceId: second!, title: null, styling: { primaryColor: null } },
      creator,
    );
    expect(cleared).toMatchObject({ title: 'Site title', trademark: { enabled: false } });
    expect(cleared.styling.primaryColor).toEqual(DEFAULT_CUSTOMIZATION.styling.primaryColor);
    await call(ops.deleteSiteSpaceCustomizationById, { organizationId: ORG, siteId, siteSpaceId: second! }, creator);
    const back = await call(
      ops.getSiteSpaceCustomizationById,
      { organizationId: ORG, siteId, siteSpaceId: second! },
      reader,
    );
    expect(back.trademark).toEqual({ enabled: true });
    const missing = failureOf(
      call(ops.getSiteSpaceCustomizationById, { organizationId: ORG, siteId, siteSpaceId: 'nope' }, reader),
    );
    expect((await missing).reason).toBe('not_found');
    const readerWrites = failureOf(
      call(ops.deleteSiteSpaceCustomizationById, { organizationId: ORG, siteId, siteSpaceId: first! }, reader),
    );
    expect((await readerWrites).reason).toBe('forbidden');
  });
});
