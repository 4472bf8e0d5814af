import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import {
  spaceInstallationCreator,
  spaceInstallationDeleter,
  spaceInstallationUpdater,
} from '../../commands/space-installation-commands.ts';
import {
  loadSpaceInstallationFor,
  loadSpaceInstallations,
  loadSpaceInstallationToUpdate,
  loadSpacesOf,
  loadSpaceToInstallOn,
} from './space-installation.loader.ts';
import { presentSpaceInstallation } from './space-installation.presenter.ts';

/** The installations of an integration on spaces, below an installation in an organization. */
export const spaceInstallationProcedures = {
  installIntegrationOnSpace: implement(ops.installIntegrationOnSpace, async ({ input, ctx }) => {
    const { installation, space } = await loadSpaceToInstallOn(ctx, input);
    const created = await spaceInstallationCreator(ctx.em, { installation, spaceId: space.id });
    return presentSpaceInstallation(ctx, input.integrationName, created);
  }),

  listIntegrationInstallationSpaces: implement(ops.listIntegrationInstallationSpaces, async ({ input, ctx }) => {
    const page = await loadSpaceInstallations(ctx, input);
    const spaces = await loadSpacesOf(ctx, page.items, input.extended);
    return { ...page, items: page.items.map((i) => presentSpaceInstallation(ctx, input.integrationName, i, spaces)) };
  }),

  getIntegrationSpaceInstallation: implement(ops.getIntegrationSpaceInstallation, async ({ input, ctx }) => {
    const { spaceInstallation } = await loadSpaceInstallationFor(ctx, input, 'view');
    const spaces = await loadSpacesOf(ctx, [spaceInstallation], input.extended);
    return presentSpaceInstallation(ctx, input.integrationName, spaceInstallation, spaces);
  }),

  updateIntegrationSpaceInstallation: implement(ops.updateIntegrationSpaceInstallation, async ({ input, ctx }) => {
    const spaceInstallation = await loadSpaceInstallationToUpdate(ctx, input);
    const updated = spaceInstallationUpdater(ctx.em, { ...input, spaceInstallation });
    return presentSpaceInstallation(ctx, input.integrationName, updated);
  }),

  uninstallIntegrationFromSpace: implement(ops.uninstallIntegrationFromSpace, async ({ input, ctx }) => {
    const { spaceInstallation } = await loadSpaceInstallationFor(ctx, input, 'delete');
    spaceInstallationDeleter(ctx.em, { spaceInstallation });
  }),
};
