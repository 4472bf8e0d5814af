import { ops, type User } from '@quire/contracts';
import type { ContentContext } from '../../trpc.ts';

/**
 * The users behind ids (`createdBy`, reviewers…), asked of org-admin, which owns them: one batched call per
 * response. A user org-admin does not know any more is shown by id only.
 */
export async function loadUsers(ctx: Pick<ContentContext, 'peers' | 'requestId' | 'urls'>, ids: Iterable<string>): Promise<Map<string, User>> {
  const wanted = [...new Set(ids)];
  const out = new Map<string, User>();
  if (!wanted.length) return out;
  const { items } = await ctx.peers.asService(ops.getUsersByIds, { ids: wanted }, ctx.requestId);
  for (const u of items) out.set(u.id, u);
  for (const id of wanted) if (!out.has(id)) out.set(id, { object: 'user', id, displayName: id, urls: { location: ctx.urls.api(`/users/${id}`) } });
  return out;
}
