import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';
import type { TeamMemberRole } from '@quire/contracts';

export const Team = defineEntity({
  name: 'Team',
  tableName: 'team',
  properties: {
    ...idColumn(),
    organizationId: p.string(),
    title: p.string(),
    createdAt: p.datetime(),
  },
});
export type ITeam = InferEntity<typeof Team>;

/** A user in a team; always a member of the team's organization (composite foreign keys). */
export const TeamMember = defineEntity({
  name: 'TeamMember',
  tableName: 'team_member',
  properties: {
    team: () => p.manyToOne(Team).primary(),
    userId: p.string().primary(),
    organizationId: p.string(),
    role: p.string().$type<TeamMemberRole>(),
    addedAt: p.datetime(),
  },
});
export type ITeamMember = InferEntity<typeof TeamMember>;
