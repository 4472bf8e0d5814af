import type { EntityManager } from '@quire/kit';
import {
  assertCustomizationSize,
  patchOverrides,
  type SiteCustomizationInput,
  type SiteSpaceCustomizationOverride,
} from '../modules/customization/customization.ts';
import type { ISite } from '../modules/sites/site.entity.ts';
import type { ISiteSpace } from '../modules/structure/structure.entity.ts';
import { siteChanged } from './structure-helpers.ts';

/** Replaces the site's customization with what the request set (defaults fill the rest when read); 400 past the size limit. */
export function siteCustomizationSetter(
  em: EntityManager,
  { site, settings, now = new Date() }: { site: ISite; settings: SiteCustomizationInput; now?: Date },
): ISite {
  const stored = JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
  assertCustomizationSize(stored, 'customization');
  site.customization = stored;
  site.customizationUpdatedAt = now;
  siteChanged(em, site, ['customization'], now);
  return site;
}

/** Lays `patch` on a site space's overrides (null removes one); 400 past the size limit. */
export function siteSpaceCustomizationOverrider(
  em: EntityManager,
  props: { site: ISite; siteSpace: ISiteSpace; patch: SiteSpaceCustomizationOverride; now?: Date },
): ISiteSpace {
  const { site, siteSpace } = props;
  const now = props.now ?? new Date();
  const overrides = patchOverrides(siteSpace.customization ?? null, JSON.parse(JSON.stringify(props.patch)));
  assertCustomizationSize(overrides, 'customization');
  siteSpace.customization = Object.keys(overrides).length ? overrides : null;
  siteSpace.customizationUpdatedAt = now;
  em.persist(siteSpace);
  siteChanged(em, site, ['customization'], now);
  return siteSpace;
}

/** Removes every override of a site space; false when it had none (nothing changes). */
export function siteSpaceCustomizationDeleter(
  em: EntityManager,
  { site, siteSpace, now = new Date() }: { site: ISite; siteSpace: ISiteSpace; now?: Date },
): boolean {
  if (siteSpace.customization == null) return false;
  siteSpace.customization = null;
  siteSpace.customizationUpdatedAt = now;
  em.persist(siteSpace);
  siteChanged(em, site, ['customization'], now);
  return true;
}
