import { ops } from '@quire/contracts';
import { assertPrincipalsIn } from '@quire/kit';
import { implement, implementPrepared } from '../../trpc.ts';
import { sitePermissionWriter } from '../../commands/site-permission-writer.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { loadSiteOverride } from './site-permission.loader.ts';
import { presentSiteAggregate, presentSiteTeamGrants, presentSiteUserGrants } from './site-permission.presenter.ts';

/**
 * Role overrides on sites: GitBook's `inviteToSite`, `list…PermissionsInSite`, `update…PermissionInSite`,
 * `remove…FromSite`, and `listPermissionsAggregateInSite` (every member's effective role).
 */
export const sitePermissionProcedures = {
  inviteToSite: implementPrepared(
    ops.inviteToSite,
    async ({ input, ctx }) => {
      const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'managePermissions');
      await assertPrincipalsIn(ctx, site.organizationId, input);
    },
    async ({ input, ctx }) => {
      const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'managePermissions');
      await sitePermissionWriter(ctx.em, { site, users: input.users, teams: input.teams, role: input.role });
    },
  ),

  listUserPermissionsInSite: implement(ops.listUserPermissionsInSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'viewPermissions');
    return presentSiteUserGrants(ctx, site, input);
  }),

  listTeamPermissionsInSite: implement(ops.listTeamPermissionsInSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'viewPermissions');
    return presentSiteTeamGrants(ctx, site, input);
  }),

  updateUserPermissionInSite: implement(ops.updateUserPermissionInSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'managePermissions');
    const principal = await loadSiteOverride(ctx, site, { kind: 'user', id: input.userId });
    await sitePermissionWriter(ctx.em, { site, ...principal, role: input.role });
  }),

  updateTeamPermissionInSite: implement(ops.updateTeamPermissionInSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'managePermissions');
    const principal = await loadSiteOverride(ctx, site, { kind: 'team', id: input.teamId });
    await sitePermissionWriter(ctx.em, { site, ...principal, role: input.role });
  }),

  removeUserFromSite: implement(ops.removeUserFromSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'managePermissions');
    await sitePermissionWriter(ctx.em, { site, users: [input.userId], role: null, remove: true });
  }),

  removeTeamFromSite: implement(ops.removeTeamFromSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'managePermissions');
    await sitePermissionWriter(ctx.em, { site, teams: [input.teamId], role: null, remove: true });
  }),

  listPermissionsAggregateInSite: implement(ops.listPermissionsAggregateInSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'viewPermissions');
    return presentSiteAggregate(ctx, site, input);
  }),
};
