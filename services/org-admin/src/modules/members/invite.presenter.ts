import type { List, Role } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import type { IInvite } from '../sign-in/sign-in.entity.ts';
import { User } from '../users/user.entity.ts';

/** A page of pending invitations as the API shows them, each with the account it was sent to (one query). */
export async function presentInvites(em: EntityManager, page: List<IInvite>) {
  const users = new Map(
    (await em.find(User, { id: { $in: [...new Set(page.items.map((i) => i.userId))] } })).map((u) => [u.id, u]),
  );
  return {
    ...page,
    items: page.items.map((invite) => {
      const user = users.get(invite.userId);
      return {
        object: 'organization-invite' as const,
        id: invite.id,
        user: { id: invite.userId, email: user?.email ?? '', displayName: user?.displayName ?? '' },
        role: invite.role as Role | null,
        joins: invite.joins,
        createdAt: invite.createdAt.toISOString(),
        expiresAt: invite.expiresAt.toISOString(),
      };
    }),
  };
}
