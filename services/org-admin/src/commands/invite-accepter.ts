import type { EntityManager } from '@quire/kit';
import { Invite, type IInvite } from '../modules/sign-in/sign-in.entity.ts';
import { membershipSetter } from './member-adder.ts';

/**
 * Accepts an invitation: claimed once (a conditional update, so two acceptances racing join once), then its account
 * is a member with the invitation's role. False, and nothing changed, when it was already used.
 */
export async function inviteAccepter(
  em: EntityManager,
  { invite, now = new Date() }: { invite: IInvite; now?: Date },
): Promise<boolean> {
  if ((await em.nativeUpdate(Invite, { id: invite.id, usedAt: null }, { usedAt: now })) !== 1) return false;
  await membershipSetter(em, {
    organizationId: invite.organizationId,
    userId: invite.userId,
    role: invite.role ?? null,
  });
  return true;
}
