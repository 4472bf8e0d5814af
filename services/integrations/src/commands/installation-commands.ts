import { Events } from '@quire/contracts';
import { conflict, newId, recordEvent, type EntityManager } from '@quire/kit';
import { Installation, type IInstallation } from '../modules/installations/installation.entity.ts';
import { installationRepository } from '../modules/installations/installation.repository.ts';
import type { IIntegration } from '../modules/integrations/integration.entity.ts';

/** What the events of an installation name it by. */
const eventRef = (installation: IInstallation) => ({
  integration: installation.integrationName,
  installation: installation.id,
  organization: installation.organizationId,
});

/** Installs an integration in an organization (once: 409 when it is already installed there); `integration-installation.created`. */
export async function installationCreator(
  em: EntityManager,
  { integration, organizationId, now = new Date() }: { integration: IIntegration; organizationId: string; now?: Date },
): Promise<IInstallation> {
  if (await installationRepository.findIn(em, integration.name, organizationId))
    throw conflict(`The integration ${integration.name} is already installed in this organization`);
  const installation = em.create(Installation, {
    id: newId(),
    integrationName: integration.name,
    organizationId,
    status: 'active',
    spaceSelection: 'all',
    siteSelection: 'all',
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  });
  recordEvent(em, Events.integrationInstallationCreated, {
    integration: integration.name,
    installation: installation.id,
    organization: organizationId,
  });
  return installation;
}

export interface InstallationUpdaterProps {
  installation: IInstallation;
  /** Checked against the integration's `account` configuration by the caller. */
  configuration?: Record<string, unknown> | undefined;
  externalIds?: string[] | undefined;
  space_selection?: 'all' | 'selected' | undefined;
  site_selection?: 'all' | 'selected' | undefined;
  now?: Date;
}

/** Changes what is given; `integration-installation.updated` names the fields (nothing is recorded when nothing changed). */
export async function installationUpdater(em: EntityManager, props: InstallationUpdaterProps): Promise<IInstallation> {
  const { installation } = props;
  const changes: Partial<IInstallation> = {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (props.configuration !== undefined && !same(props.configuration, installation.configuration))
    changes.configuration = props.configuration;
  if (props.externalIds !== undefined && !same([...new Set(props.externalIds)], installation.externalIds))
    changes.externalIds = [...new Set(props.externalIds)];
  if (props.space_selection !== undefined && props.space_selection !== installation.spaceSelection)
    changes.spaceSelection = props.space_selection;
  if (props.site_selection !== undefined && props.site_selection !== installation.siteSelection)
    changes.siteSelection = props.site_selection;
  const fields = Object.keys(changes);
  if (!fields.length) return installation;
  em.assign(installation, { ...changes, updatedAt: props.now ?? new Date() });
  recordEvent(em, Events.integrationInstallationUpdated, { ...eventRef(installation), fields });
  return installation;
}

/** Uninstalls; `integration-installation.deleted`. */
export async function installationDeleter(
  em: EntityManager,
  { installation }: { installation: IInstallation },
): Promise<void> {
  em.remove(installation);
  recordEvent(em, Events.integrationInstallationDeleted, eventRef(installation));
}
