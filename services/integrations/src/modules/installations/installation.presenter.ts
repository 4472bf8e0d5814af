import type { IntegrationInstallation } from '@quire/contracts';
import type { EntityManager, PublicUrls } from '@quire/kit';
import type { IInstallation } from './installation.entity.ts';
import { contentInstallationRepository } from './content-installation.repository.ts';

type PresentCtx = { urls: PublicUrls; em: EntityManager };

/** An installation as the API shows it, `spaces` the count of spaces it is installed on. */
const present = (ctx: PresentCtx, i: IInstallation, spaces: number): IntegrationInstallation => ({
  object: 'integration-installation',
  id: i.id,
  status: i.status,
  space_selection: i.spaceSelection,
  site_selection: i.siteSelection,
  spaces,
  configuration: i.configuration,
  externalIds: i.externalIds,
  target: { organization: i.organizationId },
  createdAt: i.createdAt.toISOString(),
  updatedAt: i.updatedAt.toISOString(),
  urls: {
    location: ctx.urls.api(`/integrations/${i.integrationName}/installations/${i.id}`),
    app: ctx.urls.page(`/o/${i.organizationId}/integrations/${i.integrationName}`),
  },
});

/** Installations as the API shows them (their space counts read in one query). */
export async function presentInstallations(
  ctx: PresentCtx,
  items: IInstallation[],
): Promise<IntegrationInstallation[]> {
  const counts = await contentInstallationRepository.countsOf(
    ctx.em,
    items.map((i) => i.id),
    'space',
  );
  return items.map((i) => present(ctx, i, counts.get(i.id) ?? 0));
}

/** An installation as the API shows it. */
export const presentInstallation = async (ctx: PresentCtx, i: IInstallation): Promise<IntegrationInstallation> =>
  (await presentInstallations(ctx, [i]))[0]!;
