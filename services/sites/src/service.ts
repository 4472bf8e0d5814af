import { ServiceOperations } from '@quire/contracts';
import type { ServiceDefinition } from '@quire/kit';
import type { SitesConfig } from './env.ts';
import { migrations } from './migrations/index.ts';
import { adaptiveProcedures } from './modules/adaptive/adaptive.router.ts';
import { organizationEventsConsumer } from './modules/organizations/organization-events.consumer.ts';
import { ShareLink } from './modules/share-links/share-link.entity.ts';
import { shareLinkProcedures } from './modules/share-links/share-links.router.ts';
import { Site } from './modules/sites/site.entity.ts';
import { siteProcedures } from './modules/sites/sites.router.ts';
import { ContentSpace } from './modules/spaces/content-space.entity.ts';
import { spaceEventsConsumer } from './modules/spaces/space-events.consumer.ts';
import { sectionProcedures } from './modules/structure/sections.router.ts';
import { siteSpaceProcedures } from './modules/structure/site-spaces.router.ts';
import { SiteSection, SiteSpace } from './modules/structure/structure.entity.ts';
import { structureProcedures } from './modules/structure/structure.router.ts';
import { serviceRouter } from './trpc.ts';

export const sitesRouter = serviceRouter('sites', ServiceOperations.sites, {
  ...siteProcedures,
  ...structureProcedures,
  ...sectionProcedures,
  ...siteSpaceProcedures,
  ...shareLinkProcedures,
  ...adaptiveProcedures,
});

/** Sites, their sections, site spaces, share links and adaptive schema; the published view. */
export const sitesService: ServiceDefinition<SitesConfig> = {
  name: 'sites',
  schema: 'sites',
  entities: [ContentSpace, Site, SiteSection, SiteSpace, ShareLink],
  migrations,
  router: sitesRouter,
  consumers: ({ orm }) => [spaceEventsConsumer(orm), organizationEventsConsumer(orm)],
};
