import { invalid } from '@quire/kit';
import { publishingAuthInitializer } from '../../commands/publishing-auth-commands.ts';
import type { SitesContext } from '../../trpc.ts';
import { loadSiteUnder } from '../sites/site.loader.ts';
import type { ISite } from '../sites/site.entity.ts';
import type { ISitePublishingAuth } from './publishing-auth.entity.ts';
import { publishingAuthPolicy } from './publishing-auth.policy.ts';

/**
 * The publishing auth of a site the caller may `action` on (404 when it cannot see the site, 403 below the
 * `create` role), made with a new key the first time a site's is asked for.
 */
export async function loadPublishingAuthFor(
  ctx: Pick<SitesContext, 'em' | 'actor' | 'config'>,
  where: { organizationId: string; siteId: string },
  action: 'view' | 'update',
): Promise<{ site: ISite; auth: ISitePublishingAuth }> {
  const site = await loadSiteUnder(ctx, where, publishingAuthPolicy, action);
  return { site, auth: await publishingAuthInitializer(ctx.em, { site, config: ctx.config }) };
}

/**
 * The publishing auth of a site the caller may update, for a change it may make: no visitor-authentication
 * integration can be installed on a Quire site, so an `integration` backend (which would leave the site with
 * nobody to sign its visitors' tokens) is a 400.
 */
export async function loadPublishingAuthToUpdate(
  ctx: Pick<SitesContext, 'em' | 'actor' | 'config'>,
  input: { organizationId: string; siteId: string; backend?: string | undefined },
): Promise<{ site: ISite; auth: ISitePublishingAuth }> {
  if (input.backend === 'integration')
    throw invalid(
      'Invalid request: backend: no visitor-authentication integration is installed on this site; use `custom`',
    );
  return loadPublishingAuthFor(ctx, input, 'update');
}
