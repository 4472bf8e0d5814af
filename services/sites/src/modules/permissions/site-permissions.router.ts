import { ops, type Role } from '@quire/contracts';
import { assertPrincipalsIn, DomainError, paginate, teamsByIds, usersByIds } from '@quire/kit';
import { implement, implementPrepared, type SitesContext } from '../../trpc.ts';
import { sitePermissionWriter } from '../../commands/site-permission-writer.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { SiteGrant } from './site-grant.entity.ts';
import { siteGrantRepository, type PrincipalKind } from './site-grant.repository.ts';
import { presentSiteAggregate } from './site-permission.presenter.ts';

type Ids = { organizationId: string; siteId: string };
const page = (
  ctx: Pick<SitesContext, 'em'>,
  siteId: string,
  principalKind: PrincipalKind,
  input: { page?: string | undefined; limit?: number | undefined },
) =>
  paginate(ctx.em, SiteGrant, { siteId, principalKind }, { principalId: 'asc' }, input, (g) => ({
    id: g.principalId,
    role: g.role ?? null,
  }));

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
    const grants = await page(ctx, site.id, 'user', input);
    const users = await usersByIds(
      ctx,
      grants.items.map((g) => g.id),
    );
    return { ...grants, items: grants.items.map((g) => ({ permission: g.role, user: users.get(g.id)! })) };
  }),

  listTeamPermissionsInSite: implement(ops.listTeamPermissionsInSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'viewPermissions');
    const grants = await page(ctx, site.id, 'team', input);
    const teams = await teamsByIds(
      ctx,
      site.organizationId,
      grants.items.map((g) => g.id),
    );
    return {
      ...grants,
      items: grants.items.flatMap((g) => {
        const team = teams.get(g.id);
        return team ? [{ permission: g.role, team }] : [];
      }),
    };
  }),

  updateUserPermissionInSite: implement(ops.updateUserPermissionInSite, async ({ input, ctx }) => {
    await updateOverride(ctx, input, { kind: 'user', id: input.userId }, input.role);
  }),

  updateTeamPermissionInSite: implement(ops.updateTeamPermissionInSite, async ({ input, ctx }) => {
    await updateOverride(ctx, input, { kind: 'team', id: input.teamId }, input.role);
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

/** `update…PermissionInSite`: changes an override the principal has (404 when it has none). */
async function updateOverride(
  ctx: Parameters<typeof loadSiteFor>[0],
  ids: Ids,
  principal: { kind: PrincipalKind; id: string },
  role: Role | null,
): Promise<void> {
  const { site } = await loadSiteFor(ctx, ids.organizationId, ids.siteId, 'managePermissions');
  if (!(await siteGrantRepository.roleOf(ctx.em, site.id, principal)))
    throw new DomainError('not_found', `The ${principal.kind} has no role override on the site`);
  await sitePermissionWriter(ctx.em, { site, [principal.kind === 'user' ? 'users' : 'teams']: [principal.id], role });
}
