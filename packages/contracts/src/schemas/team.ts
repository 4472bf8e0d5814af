import { z } from 'zod';
import { TimestampSchema } from '../common.ts';
import { MemberSchema } from './member.ts';
import { objectAndId, permissionsOf } from './shapes.ts';

export const TeamTitleSchema = z.string().trim().min(1).max(64).describe('Title of the team (1..64)');
export const TeamMemberRoleSchema = z
  .enum(['owner', 'member'])
  .describe('`owner`: can manage the team members; `member`: member of the team');
export type TeamMemberRole = z.infer<typeof TeamMemberRoleSchema>;

export const TeamPermissionsSchema = permissionsOf('What the caller may do with the team', {
  admin: 'Can the caller manage the team (its members)',
  view: 'Can the caller view the team and list its members',
});
export type TeamPermissions = z.infer<typeof TeamPermissionsSchema>;

export const TeamSchema = z
  .object({
    ...objectAndId('team', 'team'),
    title: z.string().describe('Title of the team'),
    members: z.number().int().describe('Count of members of the team'),
    spaces: z.number().int().describe('Count of spaces the team has explicit access to'),
    createdAt: TimestampSchema.describe('When the team was created'),
    permissions: TeamPermissionsSchema,
  })
  .describe('Team');
export type Team = z.infer<typeof TeamSchema>;

export const TeamMemberSchema = z.object({ role: TeamMemberRoleSchema }).describe('TeamMember');

export const OrganizationTeamMemberSchema = z
  .object({
    organization: MemberSchema.describe('The user as an organization member'),
    team: TeamMemberSchema.describe('The user as a team member'),
    permissions: z.object({ view: z.boolean().describe('Can the caller view the team member') }),
  })
  .describe('OrganizationTeamMember');
export type OrganizationTeamMember = z.infer<typeof OrganizationTeamMemberSchema>;

export const MemberTeamSchema = z
  .object({ team: TeamSchema, member: TeamMemberSchema.describe('The member in that team') })
  .describe('MemberTeam');
