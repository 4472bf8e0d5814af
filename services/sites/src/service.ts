import { ServiceOperations } from '@quire/contracts';
import type { ServiceDefinition } from '@quire/kit';
import type { SitesConfig } from './env.ts';
import { migrations } from './migrations/index.ts';
import { adaptiveProcedures } from './modules/adaptive/adaptive.router.ts';
import { organizationEventsConsumer } from './modules/organizations/organization-events.consumer.ts';
import { publishedCacheConsumer } from './modules/published/cache-events.consumer.ts';
import { publishedProcedures } from './modules/published/published.router.ts';
import { sitesCacheListener } from './modules/published/site-cache.ts';
import { SitePublishingAuth } from './modules/publishing-auth/publishing-auth.entity.ts';
import { publishingAuthProcedures } from './modules/publishing-auth/publishing-auth.router.ts';
import { resealPublishingKeysJob } from './modules/publishing-auth/reseal-keys.job.ts';
import { gitRedirectsConsumer } from './modules/redirects/git-redirects.consumer.ts';
import { SiteRedirect } from './modules/redirects/redirect.entity.ts';
import { redirectProcedures } from './modules/redirects/redirects.router.ts';
import { insightsProcedures } from './modules/insights/insights.router.ts';
import { siteAIProcedures } from './modules/ai/site-ai.router.ts';
import { siteMcpProcedures } from './modules/mcp/site-mcp.router.ts';
import { publishedContentProcedures } from './modules/published-content/published-content.router.ts';
import { ShareLink } from './modules/share-links/share-link.entity.ts';
import { shareLinkProcedures } from './modules/share-links/share-links.router.ts';
import { Site } from './modules/sites/site.entity.ts';
import { siteProcedures } from './modules/sites/sites.router.ts';
import { customHostnameProcedures } from './modules/sites/custom-hostnames.router.ts';
import { hostnameRecheckJob } from './modules/sites/hostname-recheck.job.ts';
import { ContentSpace } from './modules/spaces/content-space.entity.ts';
import { spaceEventsConsumer } from './modules/spaces/space-events.consumer.ts';
import { sectionProcedures } from './modules/structure/sections.router.ts';
import { sectionGroupProcedures } from './modules/structure/section-groups.router.ts';
import { customizationProcedures } from './modules/customization/customization.router.ts';
import { siteSpaceProcedures } from './modules/structure/site-spaces.router.ts';
import { SiteSection, SiteSectionGroup, SiteSpace } from './modules/structure/structure.entity.ts';
import { structureProcedures } from './modules/structure/structure.router.ts';
import { SiteGrant } from './modules/permissions/site-grant.entity.ts';
import { sitePermissionEventsConsumer } from './modules/permissions/site-permission-events.consumer.ts';
import { sitePermissionProcedures } from './modules/permissions/site-permissions.router.ts';
import { customFontProcedures } from './modules/fonts/custom-fonts.router.ts';
import { fontBlobSweepJob } from './modules/fonts/font-blob-sweep.job.ts';
import { serviceRouter } from './trpc.ts';

export const sitesRouter = serviceRouter('sites', ServiceOperations.sites, {
  ...siteProcedures,
  ...customHostnameProcedures,
  ...structureProcedures,
  ...sectionProcedures,
  ...sectionGroupProcedures,
  ...customizationProcedures,
  ...siteSpaceProcedures,
  ...shareLinkProcedures,
  ...adaptiveProcedures,
  ...redirectProcedures,
  ...insightsProcedures,
  ...siteAIProcedures,
  ...siteMcpProcedures,
  ...publishingAuthProcedures,
  ...publishedContentProcedures,
  ...publishedProcedures,
  ...sitePermissionProcedures,
  ...customFontProcedures,
});

/** Sites, their sections, site spaces, share links and adaptive schema; the published view. */
export const sitesService: ServiceDefinition<SitesConfig> = {
  name: 'sites',
  schema: 'sites',
  entities: [
    ContentSpace,
    Site,
    SiteSection,
    SiteSectionGroup,
    SiteSpace,
    ShareLink,
    SiteRedirect,
    SitePublishingAuth,
    SiteGrant,
  ],
  migrations,
  router: sitesRouter,
  jobs: (deps) => [resealPublishingKeysJob(deps), hostnameRecheckJob(deps), fontBlobSweepJob(deps)],
  consumers: ({ orm }) => [
    spaceEventsConsumer(orm),
    organizationEventsConsumer(orm),
    publishedCacheConsumer(orm),
    sitePermissionEventsConsumer(orm),
    gitRedirectsConsumer(orm),
  ],
  listeners: () => [sitesCacheListener()],
};
