import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import {
  contentInstallationCreator,
  contentInstallationDeleter,
  contentInstallationUpdater,
} from '../../commands/content-installation-commands.ts';
import {
  loadContentInstallationFor,
  loadContentInstallations,
  loadContentInstallationToUpdate,
  loadSitesOf,
  loadSpacesOf,
  loadTargetToInstallOn,
} from './content-installation.loader.ts';
import { presentSiteInstallation, presentSpaceInstallation } from './content-installation.presenter.ts';

/** The installations of an integration on spaces, below an installation in an organization. */
export const spaceInstallationProcedures = {
  installIntegrationOnSpace: implement(ops.installIntegrationOnSpace, async ({ input, ctx }) => {
    const { installation, targetId } = await loadTargetToInstallOn(ctx, input, 'space', input.space);
    const installed = await contentInstallationCreator(ctx.em, { installation, kind: 'space', targetId });
    return presentSpaceInstallation(ctx, input.integrationName, installed);
  }),

  listIntegrationInstallationSpaces: implement(ops.listIntegrationInstallationSpaces, async ({ input, ctx }) => {
    const { page } = await loadContentInstallations(ctx, input, 'space');
    const spaces = await loadSpacesOf(ctx, page.items, input.extended);
    return { ...page, items: page.items.map((i) => presentSpaceInstallation(ctx, input.integrationName, i, spaces)) };
  }),

  getIntegrationSpaceInstallation: implement(ops.getIntegrationSpaceInstallation, async ({ input, ctx }) => {
    const { installed } = await loadContentInstallationFor(ctx, input, 'space', input.spaceId, 'view');
    const spaces = await loadSpacesOf(ctx, [installed], input.extended);
    return presentSpaceInstallation(ctx, input.integrationName, installed, spaces);
  }),

  updateIntegrationSpaceInstallation: implement(ops.updateIntegrationSpaceInstallation, async ({ input, ctx }) => {
    const installed = await loadContentInstallationToUpdate(ctx, input, 'space', input.spaceId);
    return presentSpaceInstallation(
      ctx,
      input.integrationName,
      contentInstallationUpdater(ctx.em, { ...input, installed }),
    );
  }),

  uninstallIntegrationFromSpace: implement(ops.uninstallIntegrationFromSpace, async ({ input, ctx }) => {
    const { installed } = await loadContentInstallationFor(ctx, input, 'space', input.spaceId, 'delete');
    contentInstallationDeleter(ctx.em, { installed });
  }),
};

/** The installations of an integration on sites, below an installation in an organization. */
export const siteInstallationProcedures = {
  installIntegrationOnSite: implement(ops.installIntegrationOnSite, async ({ input, ctx }) => {
    const { installation, targetId } = await loadTargetToInstallOn(ctx, input, 'site', input.siteId);
    const installed = await contentInstallationCreator(ctx.em, { installation, kind: 'site', targetId });
    return presentSiteInstallation(ctx, input.integrationName, installed);
  }),

  listIntegrationInstallationSites: implement(ops.listIntegrationInstallationSites, async ({ input, ctx }) => {
    const { installation, page } = await loadContentInstallations(ctx, input, 'site');
    const sites = await loadSitesOf(ctx, installation.organizationId, page.items, input.extended);
    return { ...page, items: page.items.map((i) => presentSiteInstallation(ctx, input.integrationName, i, sites)) };
  }),

  getIntegrationSiteInstallation: implement(ops.getIntegrationSiteInstallation, async ({ input, ctx }) => {
    const { installation, installed } = await loadContentInstallationFor(ctx, input, 'site', input.siteId, 'view');
    const sites = await loadSitesOf(ctx, installation.organizationId, [installed], input.extended);
    return presentSiteInstallation(ctx, input.integrationName, installed, sites);
  }),

  updateIntegrationSiteInstallation: implement(ops.updateIntegrationSiteInstallation, async ({ input, ctx }) => {
    const installed = await loadContentInstallationToUpdate(ctx, input, 'site', input.siteId);
    return presentSiteInstallation(
      ctx,
      input.integrationName,
      contentInstallationUpdater(ctx.em, { ...input, installed }),
    );
  }),

  uninstallIntegrationFromSite: implement(ops.uninstallIntegrationFromSite, async ({ input, ctx }) => {
    const { installed } = await loadContentInstallationFor(ctx, input, 'site', input.siteId, 'delete');
    contentInstallationDeleter(ctx.em, { installed });
  }),
};
