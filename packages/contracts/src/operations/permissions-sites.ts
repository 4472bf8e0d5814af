import { z } from 'zod';
import { IdSchema, listOf, NoContentSchema, OrderSchema, PageQueryShape, RoleSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { type Grantee, teamGrantee, userGrantee } from './grantees.ts';
import { organizationId } from '../params.ts';
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

const user = userGrantee(UserSitePermissionOverrideSchema);
const team = teamGrantee(TeamSitePermissionOverrideSchema);

const permissionsPath = '/orgs/{organizationId}/sites/{siteId}/permissions';

const listGrantees = <P extends z.ZodRawShape, O extends z.ZodType>(g: Grantee<P, O>) =>
  op({
    id: `sitePermissions.list${g.name}s`,
    input: z.object({ organizationId, siteId, ...PageQueryShape }),
    output: listOf(g.item),
    http: {
      route: `GET ${permissionsPath}/${g.path}`,
      operationId: `list${g.name}PermissionsInSite`,
      summary: `List the ${g.path} with a role override on a site`,
    },
  });

const updateGrantee = <P extends z.ZodRawShape, O extends z.ZodType>(g: Grantee<P, O>) =>
  op({
    id: `sitePermissions.update${g.name}`,
    input: z.object({ organizationId, siteId, ...g.param, ...RoleOverrideShape }),
    output: NoContentSchema,
    http: {
      route: `PATCH ${permissionsPath}/${g.path}/{${g.paramName}}`,
      status: 204,
      operationId: `update${g.name}PermissionInSite`,
      summary: `Change ${g.whose} role override on a site`,
    },
  });

const deleteGrantee = <P extends z.ZodRawShape, O extends z.ZodType>(g: Grantee<P, O>) =>
  op({
    id: `sitePermissions.delete${g.name}`,
    input: z.object({ organizationId, siteId, ...g.param }),
    output: NoContentSchema,
    http: {
      route: `DELETE ${permissionsPath}/${g.path}/{${g.paramName}}`,
      status: 205,
      operationId: `remove${g.name}FromSite`,
      summary: `Remove ${g.whose} role override on a site`,
    },
  });

export const listUserPermissionsInSite = listGrantees(user);
export const listTeamPermissionsInSite = listGrantees(team);
export const updateUserPermissionInSite = updateGrantee(user);
export const updateTeamPermissionInSite = updateGrantee(team);
export const removeUserFromSite = deleteGrantee(user);
export const removeTeamFromSite = deleteGrantee(team);

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
