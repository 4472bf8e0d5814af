import { z } from 'zod';
import { RoleOrGuestSchema } from '../common.ts';
import { TeamMemberRoleSchema } from '../schemas/team.ts';
import { MergeRulesStandaloneConfigurationSchema } from '../schemas/merge-rules.ts';
import { eventsOf } from './define.ts';

const membership = z.object({ organization: z.string(), user: z.string() });
const team = z.object({ organization: z.string(), team: z.string() });
const teamMembership = team.extend({ user: z.string() });
/** The role a member has after a change, and the one they had. */
const roleChange = <R extends z.ZodType>(role: R) => ({ role, previousRole: role });

const event = eventsOf('org-admin');

/** Events of the org-admin service (`quire.org-admin.<entity>.<verb>`). */
export const orgAdminEvents = {
  organizationCreated: event(
    'organization.created',
    z.object({ organization: z.string(), title: z.string(), createdBy: z.string().optional() }),
  ),
  organizationDeleted: event('organization.deleted', z.object({ organization: z.string() })),
  organizationMergeRulesChanged: event(
    'organization.merge-rules-changed',
    z.object({ organization: z.string(), mergeRules: MergeRulesStandaloneConfigurationSchema }),
  ),
  memberAdded: event('member.added', membership.extend({ role: RoleOrGuestSchema })),
  memberRoleChanged: event('member.role-changed', membership.extend(roleChange(RoleOrGuestSchema))),
  memberRemoved: event('member.removed', membership),
  /** `key`: the first 16 hex digits of the token's SHA-256, what a gateway's known-token filter holds (`auth.listTokenKeys`). */
  tokenIssued: event(
    'token.issued',
    z.object({ user: z.string(), token: z.string(), key: z.string().regex(/^[a-f0-9]{16}$/) }),
  ),
  tokenRevoked: event('token.revoked', z.object({ user: z.string(), token: z.string() })),
  /** A user's sign-in sessions ended (signed out, or signed out from another browser): their live sockets close. */
  sessionEnded: event('session.ended', z.object({ user: z.string(), sessions: z.array(z.string()).min(1) })),
  teamCreated: event('team.created', team.extend({ title: z.string() })),
  teamDeleted: event('team.deleted', team),
  teamMemberAdded: event('team.member-added', teamMembership.extend({ role: TeamMemberRoleSchema })),
  teamMemberRoleChanged: event('team.member-role-changed', teamMembership.extend(roleChange(TeamMemberRoleSchema))),
  teamMemberRemoved: event('team.member-removed', teamMembership),
} as const;
