import type { OrgAdminContext } from '../../trpc.ts';
import type { IUser } from './user.entity.ts';
import { userPolicy } from './user.policy.ts';
import { userRepository } from './user.repository.ts';

/** A user the caller may read (see user.policy.ts) and what it sees of it: 404 for an unknown user and one it may not read. */
export async function loadUserFor(
  ctx: Pick<OrgAdminContext, 'em' | 'actor'>,
  userId: string,
): Promise<{ user: IUser; shows: { email: boolean } }> {
  const organizations = await userRepository.organizationsOf(ctx.em, userId);
  const level = userPolicy.assert(ctx.actor, { userId, organizations }, 'view');
  return { user: await userRepository.findOrThrow(ctx.em, userId), shows: userPolicy.permissions(level) };
}
