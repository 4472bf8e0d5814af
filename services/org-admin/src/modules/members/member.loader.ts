import { notFound } from '@quire/kit';
import type { UserContext } from '../../trpc.ts';
import type { IMembership } from '../organizations/organization.entity.ts';
import { memberPolicy, type MemberAccessFacts } from './member.policy.ts';
import { findMembership } from './member.repository.ts';

/** The membership the caller may `action` on: 403/404 from the policy first, then 404 when there is no such member. */
export async function loadMemberFor(ctx: Pick<UserContext, 'em' | 'actor'>, ids: MemberAccessFacts, action: keyof typeof memberPolicy.actions): Promise<IMembership> {
  memberPolicy.assert(ctx.actor, ids, action);
  const membership = await findMembership(ctx.em, ids.organizationId, ids.userId);
  if (!membership) throw notFound('Member');
  return membership;
}
