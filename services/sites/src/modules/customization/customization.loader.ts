import { notFound } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { SiteSpace, type ISiteSpace } from '../structure/structure.entity.ts';

type Ids = { organizationId: string; siteId: string };

/** The site whose customization the caller reads (`view`) or changes (`update`, under the site's row lock). */
export async function loadSiteCustomizationFor(ctx: SitesContext, input: Ids, action: 'view' | 'update') {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, action, { lock: action === 'update' });
  return { site };
}

/** A site space of the site, for its customization (404 when the site has no such site space). */
export async function loadSiteSpaceCustomizationFor(
  ctx: SitesContext,
  input: Ids & { siteSpaceId: string },
  action: 'view' | 'update',
): Promise<{ site: ISite; siteSpace: ISiteSpace }> {
  const { site } = await loadSiteCustomizationFor(ctx, input, action);
  const siteSpace = await ctx.em.findOne(SiteSpace, { id: input.siteSpaceId, siteId: site.id });
  if (!siteSpace) throw notFound('Site space');
  return { site, siteSpace };
}
