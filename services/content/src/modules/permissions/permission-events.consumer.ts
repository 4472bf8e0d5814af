import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { grantRepository, teamMemberRepository } from './grant.repository.ts';

export const PERMISSION_EVENTS_CONSUMER = 'content-permission-events';

/**
 * Keeps explicit grants and the team membership projection in step with org-admin, in order: a removed member's
 * grants (and team memberships) go with them, a deleted team's grants go with it, a deleted organization takes all.
 */
export const permissionEventsConsumer = defineConsumer(
  PERMISSION_EVENTS_CONSUMER,
  [
    Events.teamMemberAdded,
    Events.teamMemberRemoved,
    Events.teamDeleted,
    Events.memberRemoved,
    Events.organizationDeleted,
  ],
  {
    'team.member-added': (e, em) =>
      teamMemberRepository.add(em, e.data.organization, e.data.team, e.data.user, e.occurredAt),
    'team.member-removed': (e, em) => teamMemberRepository.remove(em, e.data.team, e.data.user, e.occurredAt),
    'team.deleted': async (e, em) => {
      await teamMemberRepository.removeTeam(em, e.data.team);
      await grantRepository.deletePrincipal(em, e.data.organization, { kind: 'team', id: e.data.team });
    },
    'member.removed': async (e, em) => {
      await teamMemberRepository.removeUser(em, e.data.organization, e.data.user);
      await grantRepository.deletePrincipal(em, e.data.organization, { kind: 'user', id: e.data.user });
    },
    'organization.deleted': async (e, em) => {
      await teamMemberRepository.removeOrganization(em, e.data.organization);
      await grantRepository.deleteOrganization(em, e.data.organization);
    },
  },
  { ordered: true },
);
