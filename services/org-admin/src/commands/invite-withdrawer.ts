import type { EntityManager } from '@quire/kit';
import type { IInvite } from '../modules/sign-in/sign-in.entity.ts';

/**
 * Withdraws a pending invitation: its link stops working (it answers the page saying the invitation was revoked).
 * A person the invitation made a member at once (a new account) stays one: removing a member is its own operation.
 */
export function inviteWithdrawer(_em: EntityManager, props: { invite: IInvite }): void {
  props.invite.revokedAt = new Date();
}
