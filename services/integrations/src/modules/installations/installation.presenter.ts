import type { IntegrationInstallation } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { IInstallation } from './installation.entity.ts';

/** An installation as the API shows it. */
export function presentInstallation(ctx: { urls: PublicUrls }, i: IInstallation): IntegrationInstallation {
  return {
    object: 'integration-installation',
    id: i.id,
    status: i.status,
    space_selection: i.spaceSelection,
    site_selection: i.siteSelection,
    spaces: 0,
    configuration: i.configuration,
    externalIds: i.externalIds,
    target: { organization: i.organizationId },
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
    urls: {
      location: ctx.urls.api(`/integrations/${i.integrationName}/installations/${i.id}`),
      app: ctx.urls.page(`/o/${i.organizationId}/integrations/${i.integrationName}`),
    },
  };
}
