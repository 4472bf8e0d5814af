import { z } from 'zod';
import { RoleOrGuestSchema } from '../common.ts';
import { TeamMemberRoleSchema } from '../schemas/team.ts';
import { MergeRulesStandaloneConfigurationSchema } from '../schemas/merge-rules.ts';
import { defineEvent } from './define.ts';

const membership = z.object({ organization: z.string(), user: z.string() });
const team = z.object({ organization: z.string(), team: z.string() });
const teamMembership = team.extend({ user: z.string() });

/** Events of the org-admin service (`quire.org-admin.<entity>.<verb>`). */
export const orgAdminEvents = {
  organizationCreated: defineEvent(
    'org-admin',
    'organization.created',
    z.object({ organization: z.string(), title: z.string(), createdBy: z.string().optional() }),
  ),
  organizationDeleted: defineEvent('org-admin', 'organization.deleted', z.object({ organization: z.string() })),
  organizationMergeRulesChanged: defineEvent(
    'org-admin',
    'organization.merge-rules-changed',
    z.object({ organization: z.string(), mergeRules: MergeRulesStandaloneConfigurationSchema }),
  ),
  memberAdded: defineEvent('org-admin', 'member.added', membership.extend({ role: RoleOrGuestSchema })),
  memberRoleChanged: defineEvent(
    'org-admin',
    'member.role-changed',
    membership.extend({ role: RoleOrGuestSchema, previousRole: RoleOrGuestSchema }),
  ),
  memberRemoved: defineEvent('org-admin', 'member.removed', membership),
  tokenRevoked: defineEvent('org-admin', 'token.revoked', z.object({ user: z.string(), token: z.string() })),
  teamCreated: defineEvent('org-admin', 'team.created', team.extend({ title: z.string() })),
  teamDeleted: defineEvent('org-admin', 'team.deleted', team),
  teamMemberAdded: defineEvent('org-admin', 'team.member-added', teamMembership.extend({ role: TeamMemberRoleSchema })),
  teamMemberRoleChanged: defineEvent(
    'org-admin',
    'team.member-role-changed',
    teamMembership.extend({ role: TeamMemberRoleSchema, previousRole: TeamMemberRoleSchema }),
  ),
  teamMemberRemoved: defineEvent('org-admin', 'team.member-removed', teamMembership),
} as const;
