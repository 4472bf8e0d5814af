import { conflict, newId, type EntityManager } from '@quire/kit';
import {
  ContentInstallation,
  type ContentKind,
  type IContentInstallation,
} from '../modules/installations/content-installation.entity.ts';
import { contentInstallationRepository } from '../modules/installations/content-installation.repository.ts';
import type { IInstallation } from '../modules/installations/installation.entity.ts';
import { installationUpdater } from './installation-commands.ts';

/**
 * Installs an integration on a space or a site of its installation's organization (once: 409 when it is installed
 * there already). The installation then manages a selection of spaces (or sites): its `space_selection` (or
 * `site_selection`) becomes `selected` (`integration-installation.updated` when it changes).
 */
export async function contentInstallationCreator(
  em: EntityManager,
  props: { installation: IInstallation; kind: ContentKind; targetId: string; now?: Date },
): Promise<IContentInstallation> {
  const { installation, kind, targetId, now = new Date() } = props;
  if (await contentInstallationRepository.find(em, installation.id, kind, targetId))
    throw conflict(`The integration ${installation.integrationName} is already installed on this ${kind}`);
  const installed = em.create(ContentInstallation, {
    id: newId(),
    installationId: installation.id,
    targetKind: kind,
    targetId,
    status: 'active',
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  });
  const selection =
    kind === 'space' ? { space_selection: 'selected' as const } : { site_selection: 'selected' as const };
  await installationUpdater(em, { installation, ...selection, now });
  return installed;
}

/** Changes a space or site installation's `configuration` (checked by the caller) or `externalIds`, when given. */
export function contentInstallationUpdater(
  em: EntityManager,
  props: {
    installed: IContentInstallation;
    configuration?: Record<string, unknown> | undefined;
    externalIds?: string[] | undefined;
    now?: Date;
  },
): IContentInstallation {
  const { installed, configuration, externalIds } = props;
  if (configuration === undefined && externalIds === undefined) return installed;
  em.assign(installed, {
    ...(configuration !== undefined ? { configuration } : {}),
    ...(externalIds !== undefined ? { externalIds: [...new Set(externalIds)] } : {}),
    updatedAt: props.now ?? new Date(),
  });
  return installed;
}

/** Uninstalls an integration from a space or a site (the installation keeps its selection, now one fewer). */
export function contentInstallationDeleter(
  em: EntityManager,
  { installed }: { installed: IContentInstallation },
): void {
  em.remove(installed);
}

/** A space was purged or a site deleted: every installation on it goes (the installations keep their selection). */
export async function targetInstallationsDeleter(
  em: EntityManager,
  { kind, targetId }: { kind: ContentKind; targetId: string },
): Promise<void> {
  for (const installed of await contentInstallationRepository.onTarget(em, kind, targetId)) em.remove(installed);
}
