import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { memberRepository } from './member.repository.ts';

export const MEMBER_EVENTS_CONSUMER = 'content-member-events';

/**
 * Keeps the `member` projection from org-admin's events, in the order they happened (one ordered consumer
 * over `org-admin.member.*` and `org-admin.organization.*`); `event_at` also refuses an older event
 * delivered late (a retry).
 */
export const memberEventsConsumer = defineConsumer(
  MEMBER_EVENTS_CONSUMER,
  [Events.memberAdded, Events.memberRoleChanged, Events.memberRemoved, Events.organizationDeleted],
  {
    'member.added': (e, em) => memberRepository.upsert(em, e.data.organization, e.data.user, e.data.role, e.occurredAt),
    'member.role-changed': (e, em) =>
      memberRepository.upsert(em, e.data.organization, e.data.user, e.data.role, e.occurredAt),
    'member.removed': (e, em) => memberRepository.remove(em, e.data.organization, e.data.user, e.occurredAt),
    'organization.deleted': (e, em) => memberRepository.removeOrganization(em, e.data.organization),
  },
  { ordered: true },
);
