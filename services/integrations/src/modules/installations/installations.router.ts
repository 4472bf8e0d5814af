import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { installationCreator, installationDeleter, installationUpdater } from '../../commands/installation-commands.ts';
import {
  loadInstallationFor,
  loadInstallations,
  loadInstallationToUpdate,
  loadIntegrationToInstall,
} from './installation.loader.ts';
import { presentInstallation, presentInstallations } from './installation.presenter.ts';

export const installationProcedures = {
  installIntegration: implement(ops.installIntegration, async ({ input, ctx }) => {
    const integration = await loadIntegrationToInstall(ctx, input.integrationName, input.organization);
    return presentInstallation(
      ctx,
      await installationCreator(ctx.em, { integration, organizationId: input.organization }),
    );
  }),

  listIntegrationInstallations: implement(ops.listIntegrationInstallations, async ({ input, ctx }) => {
    const page = await loadInstallations(ctx, input);
    return { ...page, items: await presentInstallations(ctx, page.items) };
  }),

  getIntegrationInstallationById: implement(ops.getIntegrationInstallationById, async ({ input, ctx }) => {
    const { installation } = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'view');
    return presentInstallation(ctx, installation);
  }),

  updateIntegrationInstallation: implement(ops.updateIntegrationInstallation, async ({ input, ctx }) => {
    const { installation } = await loadInstallationToUpdate(ctx, input);
    return presentInstallation(ctx, await installationUpdater(ctx.em, { ...input, installation }));
  }),

  uninstallIntegration: implement(ops.uninstallIntegration, async ({ input, ctx }) => {
    const { installation } = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'delete');
    await installationDeleter(ctx.em, { installation });
  }),
};
