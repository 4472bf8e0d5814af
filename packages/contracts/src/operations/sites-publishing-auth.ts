import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import { SitePublishingAuthSchema, SitePublishingAuthUpdateShape } from '../schemas/site-publishing-auth.ts';
import { siteId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['site-publishing-auth'] });
const route = 'orgs/{organizationId}/sites/{siteId}/publishing/auth';

export const getSitePublishingAuthById = op({
  id: 'sitePublishingAuth.get',
  input: z.object({ organizationId, siteId }),
  output: SitePublishingAuthSchema,
  http: {
    route: `GET /${route}`,
    operationId: 'getSitePublishingAuthById',
    summary: 'The visitor authentication of a site: its signing key (made on first use) and sign-in and sign-out URLs',
  },
});

export const updateSitePublishingAuthById = op({
  id: 'sitePublishingAuth.update',
  input: z.object({ organizationId, siteId, ...SitePublishingAuthUpdateShape }),
  output: SitePublishingAuthSchema,
  http: {
    route: `PATCH /${route}`,
    operationId: 'updateSitePublishingAuthById',
    summary: 'Change the visitor authentication of a site: backend, sign-in (fallback) and sign-out URLs',
  },
});

export const regenerateSitePublishingAuthById = op({
  id: 'sitePublishingAuth.updateKey',
  input: z.object({ organizationId, siteId }),
  output: SitePublishingAuthSchema,
  http: {
    route: `POST /${route}/regenerate`,
    operationId: 'regenerateSitePublishingAuthById',
    summary: 'Replace the signing key of the visitor authentication: tokens signed with the old key stop working',
  },
});
