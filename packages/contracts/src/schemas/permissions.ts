import { z } from 'zod';
import { IdSchema, RoleOrGuestSchema, RoleSchema, TimestampSchema } from '../common.ts';
import { TeamSchema } from './team.ts';
import { UserSchema } from './user.ts';

const MAX_INVITEES = 100;

const invitees = (one: string, many: string, whose: string) =>
  z
    .array(IdSchema.describe(`The ID of a ${one} to invite`))
    .min(1)
    .max(MAX_INVITEES)
    .optional()
    .describe(`${many} to invite (1..${MAX_INVITEES}); ${whose}`);

/** GitBook's `InviteUsersAndTeams`: a role for users and/or teams (at least one of them). */
export const InviteUsersAndTeamsShape = {
  role: RoleOrGuestSchema.describe('Role to give (null: the explicit permission of each one is removed)'),
  users: invitees('user', 'Users', 'members of the organization'),
  teams: invitees('team', 'Teams', 'teams of the organization'),
};

/** `users` or `teams` must be given (GitBook's anyOf). */
export function requireInvitees(
  v: { users?: string[] | undefined; teams?: string[] | undefined },
  ctx: z.RefinementCtx,
): void {
  if (!v.users && !v.teams) ctx.addIssue({ code: 'custom', path: ['users'], message: 'users or teams is required' });
}

export const PermissionRoleUpdateShape = {
  role: RoleOrGuestSchema.describe('The role to set (null: the explicit permission is removed)'),
};

export const UserContentPermissionSchema = z
  .object({ permission: RoleSchema.describe('The role of the user on the content'), user: UserSchema })
  .describe('UserContentPermission: permission of a user in a content');
export type UserContentPermission = z.infer<typeof UserContentPermissionSchema>;

export const TeamContentPermissionSchema = z
  .object({ permission: RoleSchema.describe('The role of the team on the content'), team: TeamSchema })
  .describe('Permission of a team in a content');
export type TeamContentPermission = z.infer<typeof TeamContentPermissionSchema>;

/** GitBook's `UserSitePermissionOverride` and `TeamSitePermissionOverride`: the role set on a site for a user or team. */
const siteOverride = <K extends 'user' | 'team', S extends z.ZodType>(who: K, schema: S, name: string) =>
  z
    .object({
      permission: RoleOrGuestSchema.describe(`The role of the ${who} on the site (null: guest)`),
      ...({ [who]: schema } as { [P in K]: S }),
    })
    .describe(`${name}: permission override of a ${who} in a site`);

export const UserSitePermissionOverrideSchema = siteOverride('user', UserSchema, 'UserSitePermissionOverride');
export type UserSitePermissionOverride = z.infer<typeof UserSitePermissionOverrideSchema>;
export const TeamSitePermissionOverrideSchema = siteOverride('team', TeamSchema, 'TeamSitePermissionOverride');
export type TeamSitePermissionOverride = z.infer<typeof TeamSitePermissionOverrideSchema>;

/**
 * GitBook's `UserSitePermissionOrigin`: what decided a user's role on a site. Quire has no site default level and
 * sites do not take roles from spaces: the origin is an override of the site (the user's own, or the team's whose
 * role won), else the organization (the organization role, and always for organization admins).
 */
export const UserSitePermissionOriginSchema = z
  .union([
    z
      .object({
        type: z.literal('organization'),
        organization: z.string().describe('Unique identifier for the organization'),
      })
      .describe('The organization role decided it'),
    z
      .object({
        type: z.literal('site'),
        site: z.string().describe('Unique identifier for the site'),
        reason: z
          .enum(['member', 'team', 'default'])
          .describe("`member`: the user's own override; `team`: an override of one of its teams"),
        team: z.string().optional().describe('The team whose override decided it (reason `team`)'),
      })
      .describe('An override on the site decided it'),
  ])
  .describe('The origin that enforced the effective permission level of the user on the site');

export const UserSitePermissionSchema = z
  .object({
    permission: RoleOrGuestSchema.describe('The effective role of the user on the site'),
    user: UserSchema,
    origin: UserSitePermissionOriginSchema,
    disabled: z.boolean().describe('Whether the user is disabled (never, in Quire: members are removed instead)'),
    lastSeenAt: TimestampSchema.optional().describe('When the user was last seen active in the organization'),
  })
  .describe('UserSitePermission: permission of a user in a site');
export type UserSitePermission = z.infer<typeof UserSitePermissionSchema>;
