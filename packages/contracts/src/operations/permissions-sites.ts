import { z } from 'zod';
import { IdSchema, listOf, NoContentSchema, OrderSchema, PageQueryShape, RoleSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId, teamId, userId } from '../params.ts';
import {
  InviteUsersAndTeamsShape,
  requireInvitees,
  TeamSitePermissionOverrideSchema,
  UserSitePermissionOverrideSchema,
  UserSitePermissionSchema,
} from '../schemas/permissions.ts';
import { MemberRoleFilterSchema, MemberSearchShape } from '../schemas/member.ts';
import { siteId } from './sites-params.ts';

/**
 * Permission overrides on sites (GitBook's `inviteToSite`…): a user's or a team's role on one site instead of
 * their organization role (null: a guest of the site, no access).
 */
const op = operationsOf('sites', { tags: ['site-permissions'] });

const RoleOverrideShape = {
  role: RoleSchema.nullable().describe('The role on the site; null: no access (a guest of the site)'),
};

export const inviteToSite = op({
  id: 'sitePermissions.invite',
  input: z
    .object({ organizationId, siteId, ...InviteUsersAndTeamsShape, role: RoleOverrideShape.role })
    .superRefine(requireInvitees),
  output: NoContentSchema,
  http: {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/permissions',
    status: 204,
    operationId: 'inviteToSite',
    summary: 'Give users or teams a role on a site (an override of their organization role)',
  },
});

export const listUserPermissionsInSite = op({
  id: 'sitePermissions.listUsers',
  input: z.object({ organizationId, siteId, ...PageQueryShape }),
  output: listOf(UserSitePermissionOverrideSchema),
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/permissions/users',
    operationId: 'listUserPermissionsInSite',
    summary: 'List the users with a role override on a site',
  },
});

export const listTeamPermissionsInSite = op({
  id: 'sitePermissions.listTeams',
  input: z.object({ organizationId, siteId, ...PageQueryShape }),
  output: listOf(TeamSitePermissionOverrideSchema),
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/permissions/teams',
    operationId: 'listTeamPermissionsInSite',
    summary: 'List the teams with a role override on a site',
  },
});

export const updateUserPermissionInSite = op({
  id: 'sitePermissions.updateUser',
  input: z.object({ organizationId, siteId, userId, ...RoleOverrideShape }),
  output: NoContentSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/permissions/users/{userId}',
    status: 204,
    operationId: 'updateUserPermissionInSite',
    summary: "Change a user's role override on a site",
  },
});

export const updateTeamPermissionInSite = op({
  id: 'sitePermissions.updateTeam',
  input: z.object({ organizationId, siteId, teamId, ...RoleOverrideShape }),
  output: NoContentSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}',
    status: 204,
    operationId: 'updateTeamPermissionInSite',
    summary: "Change a team's role override on a site",
  },
});

export const removeUserFromSite = op({
  id: 'sitePermissions.deleteUser',
  input: z.object({ organizationId, siteId, userId }),
  output: NoContentSchema,
  http: {
    route: 'DELETE /orgs/{organizationId}/sites/{siteId}/permissions/users/{userId}',
    status: 205,
    operationId: 'removeUserFromSite',
    summary: "Remove a user's role override on a site",
  },
});

export const removeTeamFromSite = op({
  id: 'sitePermissions.deleteTeam',
  input: z.object({ organizationId, siteId, teamId }),
  output: NoContentSchema,
  http: {
    route: 'DELETE /orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}',
    status: 205,
    operationId: 'removeTeamFromSite',
    summary: "Remove a team's role override on a site",
  },
});

export const listPermissionsAggregateInSite = op({
  id: 'sitePermissions.listAggregate',
  input: z.object({
    organizationId,
    siteId,
    ...PageQueryShape,
    order: OrderSchema,
    role: MemberRoleFilterSchema.optional().describe(
      'Only members with this effective role on the site (`guest`: members without an organization role)',
    ),
    ...MemberSearchShape,
    team: IdSchema.optional().describe('Only the members of this team'),
  }),
  output: listOf(UserSitePermissionSchema),
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/permissions/aggregate',
    operationId: 'listPermissionsAggregateInSite',
    summary: 'List every member who can access a site, with their effective role and where it comes from',
  },
});
