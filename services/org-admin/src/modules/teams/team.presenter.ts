import type { Actor, Team as TeamDto } from '@quire/contracts';
import type { ITeam } from './team.entity.ts';
import { teamPermissions } from './team.policy.ts';
import type { TeamFacts } from './team.repository.ts';

/**
 * `spaces` counts the spaces the team has been given explicit access to. Quire has no space-permission
 * grants yet (neither users nor teams can be invited to a space), so it is truly 0 today.
 */
const SPACES_GRANTED = 0;

export function presentTeam(t: ITeam, facts: TeamFacts, actor: Actor): TeamDto {
  return {
    object: 'team',
    id: t.id,
    title: t.title,
    members: facts.members.get(t.id) ?? 0,
    spaces: SPACES_GRANTED,
    createdAt: t.createdAt.toISOString(),
    permissions: teamPermissions(actor, { organizationId: t.organizationId, callerRole: facts.callerRoles.get(t.id) ?? null }),
  };
}
