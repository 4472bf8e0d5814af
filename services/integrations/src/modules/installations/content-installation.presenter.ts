import type { IntegrationSiteInstallation, IntegrationSpaceInstallation, Site, Space } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { IContentInstallation } from './content-installation.entity.ts';

type PresentCtx = { urls: PublicUrls };

/** What a space installation and a site installation both show. */
const base = (ctx: PresentCtx, integrationName: string, i: IContentInstallation) => ({
  integration: integrationName,
  installation: i.installationId,
  status: i.status,
  configuration: i.configuration,
  externalIds: i.externalIds,
  urls: {
    location: ctx.urls.api(
      `/integrations/${integrationName}/installations/${i.installationId}/${i.targetKind}s/${i.targetId}`,
    ),
  },
});

/** A space installation as the API shows it: `space` is the space when `spaces` holds it (`extended`), else its ID. */
export const presentSpaceInstallation = (
  ctx: PresentCtx,
  integrationName: string,
  i: IContentInstallation,
  spaces: ReadonlyMap<string, Space> = new Map(),
): IntegrationSpaceInstallation => ({
  ...base(ctx, integrationName, i),
  space: spaces.get(i.targetId) ?? i.targetId,
});

/** A site installation as the API shows it: `site` is the site when `sites` holds it (`extended`), else its ID. */
export const presentSiteInstallation = (
  ctx: PresentCtx,
  integrationName: string,
  i: IContentInstallation,
  sites: ReadonlyMap<string, Site> = new Map(),
): IntegrationSiteInstallation => ({
  ...base(ctx, integrationName, i),
  site: sites.get(i.targetId) ?? i.targetId,
});
