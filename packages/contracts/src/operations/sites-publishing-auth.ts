import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import { SitePublishingAuthSchema, SitePublishingAuthUpdateShape } from '../schemas/site-publishing-auth.ts';
import { singletonOps } from './resources.ts';
import { SITE, siteId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['site-publishing-auth'] });
const route = 'orgs/{organizationId}/sites/{siteId}/publishing/auth';

const auth = singletonOps(op, {
  noun: 'sitePublishingAuth',
  in: SITE,
  path: 'publishing/auth',
  item: SitePublishingAuthSchema,
});

export const getSitePublishingAuthById = auth.get(
  'getSitePublishingAuthById',
  'The visitor authentication of a site: its signing key (made on first use) and sign-in and sign-out URLs',
);

export const updateSitePublishingAuthById = auth.update(
  'updateSitePublishingAuthById',
  'Change the visitor authentication of a site: backend, sign-in (fallback) and sign-out URLs',
  SitePublishingAuthUpdateShape,
);

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
