import type { List, Space } from '@quire/contracts';
import { notFound, paginate, type PageRequest } from '@quire/kit';
import type { IntegrationsContext } from '../../trpc.ts';
import { assertConfigurationFits } from '../integrations/configuration-schema.ts';
import type { IIntegration } from '../integrations/integration.entity.ts';
import { fetchSpaces, requireSpaceIn } from '../spaces/content-spaces.ts';
import type { IInstallation } from './installation.entity.ts';
import { loadInstallationFor } from './installation.loader.ts';
import { SpaceInstallation, type ISpaceInstallation } from './space-installation.entity.ts';
import { spaceInstallationRepository } from './space-installation.repository.ts';

type Ctx = Pick<IntegrationsContext, 'em' | 'actor' | 'peers' | 'requestId'>;
type InstallationRef = { integrationName: string; installationId: string };

/**
 * An installation and a space to install it on: the installation's admins (`update`, as GitBook: the organization's
 * admins), and a live space of the installation's organization they can view (400 naming `space` otherwise).
 */
export async function loadSpaceToInstallOn(
  ctx: Ctx,
  input: InstallationRef & { space: string },
): Promise<{ installation: IInstallation; space: Space }> {
  const { installation } = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'update');
  return { installation, space: await requireSpaceIn(ctx, installation.organizationId, input.space, 'space') };
}

/** The installation of an integration on a space, for the installation's admins to `view` or change: 404 when it is not installed there. */
export async function loadSpaceInstallationFor(
  ctx: Ctx,
  input: InstallationRef & { spaceId: string },
  action: 'view' | 'update' | 'delete',
): Promise<{ integration: IIntegration; installation: IInstallation; spaceInstallation: ISpaceInstallation }> {
  const loaded = await loadInstallationFor(ctx, input.integrationName, input.installationId, action);
  const spaceInstallation = await spaceInstallationRepository.find(ctx.em, loaded.installation.id, input.spaceId);
  if (!spaceInstallation) throw notFound('Space installation');
  return { ...loaded, spaceInstallation };
}

/** A space installation to update, its new `configuration` (when given) checked against the integration's `space` form. */
export async function loadSpaceInstallationToUpdate(
  ctx: Ctx,
  input: InstallationRef & { spaceId: string; configuration?: Record<string, unknown> | undefined },
): Promise<ISpaceInstallation> {
  const { integration, spaceInstallation } = await loadSpaceInstallationFor(ctx, input, 'update');
  if (input.configuration !== undefined)
    assertConfigurationFits(integration.configurations, input.configuration, 'space');
  return spaceInstallation;
}

/** A page of the spaces an installation is installed on, for its admins (oldest first). */
export async function loadSpaceInstallations(
  ctx: Ctx,
  input: PageRequest & InstallationRef,
): Promise<List<ISpaceInstallation>> {
  const { installation } = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'view');
  return paginate(
    ctx.em,
    SpaceInstallation,
    { installationId: installation.id },
    { createdAt: 'asc', id: 'asc' },
    input,
    (i) => i,
  );
}

/** The spaces of space installations as the caller sees them, when `extended` asks for them (else an empty map). */
export const loadSpacesOf = (
  ctx: Ctx,
  items: ISpaceInstallation[],
  extended: boolean | undefined,
): Promise<Map<string, Space>> =>
  extended
    ? fetchSpaces(
        ctx,
        items.map((i) => i.spaceId),
      )
    : Promise.resolve(new Map());
