import type { IntegrationSpaceInstallation, Space } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { ISpaceInstallation } from './space-installation.entity.ts';

/**
 * A space installation as the API shows it: its `space` is the space object when `spaces` holds it (`extended`),
 * else its ID.
 */
export const presentSpaceInstallation = (
  ctx: { urls: PublicUrls },
  integrationName: string,
  si: ISpaceInstallation,
  spaces: ReadonlyMap<string, Space> = new Map(),
): IntegrationSpaceInstallation => ({
  integration: integrationName,
  installation: si.installationId,
  status: si.status,
  configuration: si.configuration,
  externalIds: si.externalIds,
  space: spaces.get(si.spaceId) ?? si.spaceId,
  urls: {
    location: ctx.urls.api(`/integrations/${integrationName}/installations/${si.installationId}/spaces/${si.spaceId}`),
  },
});
