import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';
import type { SiteRedirectDestination } from '@quire/contracts';

/**
 * A redirect of a site: a source path (normalised: a leading `/`, no trailing `/`, no query; a trailing `*`
 * matches any rest of the path) sent to a section, a site space, a page of a site space or an external URL.
 * A site has at most one live and one draft redirect per source. A Git import makes (and replaces) the live
 * redirects of its space's `.gitbook.yaml` (`gitSpaceId`).
 */
export const SiteRedirect = defineEntity({
  name: 'SiteRedirect',
  tableName: 'site_redirect',
  properties: {
    ...idColumn(),
    siteId: p.string(),
    source: p.string(),
    draft: p.boolean(),
    captureWildcard: p.boolean(),
    permanent: p.boolean(),
    destination: p.json<SiteRedirectDestination>(),
    createdAt: p.datetime(),
    /** Equals `createdAt` until the first change. */
    updatedAt: p.datetime(),
    /** The space whose `.gitbook.yaml` made the redirect (Git Sync); null when a user made it or changed it since. */
    gitSpaceId: p.string().nullable(),
  },
});
export type ISiteRedirect = InferEntity<typeof SiteRedirect>;
