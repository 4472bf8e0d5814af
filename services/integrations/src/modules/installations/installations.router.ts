import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { installationCreator, installationDeleter, installationUpdater } from '../../commands/installation-commands.ts';
import { assertConfigurationFits } from '../integrations/configuration-schema.ts';
import { loadIntegrationFor } from '../integrations/integration.loader.ts';
import { organizationIntegrationsPolicy } from '../organizations/organization.policy.ts';
import { Installation } from './installation.entity.ts';
import { loadInstallationFor } from './installation.loader.ts';
import { listableInstallations } from './installation.policy.ts';
import { presentInstallation } from './installation.presenter.ts';
import { installationRepository } from './installation.repository.ts';

export const installationProcedures = {
  installIntegration: implement(ops.installIntegration, async ({ input, ctx }) => {
    const integration = await loadIntegrationFor(ctx, input.integrationName, 'useInstallations');
    organizationIntegrationsPolicy.assert(ctx.actor, { organizationId: input.organization }, 'install');
    return presentInstallation(ctx, await installationCreator(ctx.em, { integration, organizationId: input.organization }));
  }),

  listIntegrationInstallations: implement(ops.listIntegrationInstallations, async ({ input, ctx }) => {
    const integration = await loadIntegrationFor(ctx, input.integrationName, 'useInstallations');
    const where = await installationRepository.visibleWhere(ctx.em, integration.name, listableInstallations(ctx.actor, integration.ownerId), input.externalId);
    if (!where) return { count: 0, items: [] };
    return paginate(ctx.em, Installation, where, { createdAt: 'asc', id: 'asc' }, input, (i) => presentInstallation(ctx, i));
  }),

  getIntegrationInstallationById: implement(ops.getIntegrationInstallationById, async ({ input, ctx }) => {
    const { installation } = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'view');
    return presentInstallation(ctx, installation);
  }),

  updateIntegrationInstallation: implement(ops.updateIntegrationInstallation, async ({ input, ctx }) => {
    const { integration, installation } = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'update');
    if (input.configuration !== undefined) assertConfigurationFits(integration.configurations, input.configuration);
    return presentInstallation(ctx, await installationUpdater(ctx.em, { ...input, installation }));
  }),

  uninstallIntegration: implement(ops.uninstallIntegration, async ({ input, ctx }) => {
    const { installation } = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'delete');
    await installationDeleter(ctx.em, { installation });
  }),
};
