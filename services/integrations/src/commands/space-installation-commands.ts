import { conflict, newId, type EntityManager } from '@quire/kit';
import type { IInstallation } from '../modules/installations/installation.entity.ts';
import { SpaceInstallation, type ISpaceInstallation } from '../modules/installations/space-installation.entity.ts';
import { spaceInstallationRepository } from '../modules/installations/space-installation.repository.ts';
import { installationUpdater } from './installation-commands.ts';

/**
 * Installs an integration on a space of its installation's organization (once: 409 when it is installed there
 * already). The installation then manages a selection of spaces: its `space_selection` becomes `selected`
 * (`integration-installation.updated` when it changes).
 */
export async function spaceInstallationCreator(
  em: EntityManager,
  { installation, spaceId, now = new Date() }: { installation: IInstallation; spaceId: string; now?: Date },
): Promise<ISpaceInstallation> {
  if (await spaceInstallationRepository.find(em, installation.id, spaceId))
    throw conflict(`The integration ${installation.integrationName} is already installed on this space`);
  const spaceInstallation = em.create(SpaceInstallation, {
    id: newId(),
    installationId: installation.id,
    spaceId,
    status: 'active',
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  });
  await installationUpdater(em, { installation, space_selection: 'selected', now });
  return spaceInstallation;
}

/** Changes a space installation's `configuration` (checked by the caller) or `externalIds`, when given. */
export function spaceInstallationUpdater(
  em: EntityManager,
  props: {
    spaceInstallation: ISpaceInstallation;
    configuration?: Record<string, unknown> | undefined;
    externalIds?: string[] | undefined;
    now?: Date;
  },
): ISpaceInstallation {
  const { spaceInstallation, configuration, externalIds } = props;
  if (configuration === undefined && externalIds === undefined) return spaceInstallation;
  em.assign(spaceInstallation, {
    ...(configuration !== undefined ? { configuration } : {}),
    ...(externalIds !== undefined ? { externalIds: [...new Set(externalIds)] } : {}),
    updatedAt: props.now ?? new Date(),
  });
  return spaceInstallation;
}

/** Uninstalls an integration from a space (the installation keeps its `selected` spaces, now one fewer). */
export function spaceInstallationDeleter(
  em: EntityManager,
  { spaceInstallation }: { spaceInstallation: ISpaceInstallation },
): void {
  em.remove(spaceInstallation);
}
