import type { SiteCustomizationSettings } from '@quire/contracts';
import type { ISite } from '../sites/site.entity.ts';
import type { ISiteSpace } from '../structure/structure.entity.ts';
import type { TreeSpace } from '../structure/site-tree.ts';
import { effectiveCustomization, withOverrides } from './customization.ts';

const latest = (...dates: (Date | null | undefined)[]) =>
  dates.filter((d): d is Date => !!d).sort((a, b) => b.getTime() - a.getTime())[0];

/** The site's customization: what was set, the defaults for the rest; `updatedAt` once it was set. */
export function presentSiteCustomization(site: ISite): SiteCustomizationSettings {
  const updatedAt = latest(site.customizationUpdatedAt);
  return {
    ...effectiveCustomization(site.customization ?? null),
    ...(updatedAt ? { updatedAt: updatedAt.toISOString() } : {}),
  };
}

/** What a site space's pages show: the site's customization with the site space's overrides. */
export function presentSiteSpaceCustomization(site: ISite, siteSpace: ISiteSpace): SiteCustomizationSettings {
  const updatedAt = latest(
    site.customizationUpdatedAt,
    siteSpace.customization ? siteSpace.customizationUpdatedAt : null,
  );
  return {
    ...withOverrides(effectiveCustomization(site.customization ?? null), siteSpace.customization ?? null),
    ...(updatedAt ? { updatedAt: updatedAt.toISOString() } : {}),
  };
}

/** The customizations of a published site as its audience gets them: the site's, and each shown site space's. */
export function presentPublishedCustomizations(site: ISite, shown: readonly TreeSpace[]) {
  return {
    site: presentSiteCustomization(site),
    siteSpaces: Object.fromEntries(shown.map((t) => [t.entity.id, presentSiteSpaceCustomization(site, t.entity)])),
  };
}
