import { ops, type Actor, type Collection, type Role, type Space } from '@quire/contracts';
import type { Caller } from './service.ts';

/** A user who is a member of each organization with the given role (`null`: guest). */
export const userActor = (userId: string, memberships: { organization: string; role: Role | null }[] = []): Actor => ({
  kind: 'user',
  userId,
  memberships: memberships.map((m) => ({ ...m, teams: [] })),
});

/** The admin of an organization (a user of its own). */
export const orgAdmin = (organizationId: string, userId = `admin-of-${organizationId}`): Actor =>
  userActor(userId, [{ organization: organizationId, role: 'admin' }]);

let seq = 0;

/** A space created through the operation (as the organization's admin unless `as` says otherwise). */
export function buildSpace(
  t: Caller,
  props: { org: string; as?: Actor; title?: string; parent?: string; emoji?: string },
): Promise<Space> {
  const { org, as = orgAdmin(org), title = `Space ${++seq}`, ...rest } = props;
  return t.call(ops.createSpace, { organizationId: org, title, ...rest }, as);
}

/** A collection created through the operation (as the organization's admin unless `as` says otherwise). */
export function buildCollection(
  t: Caller,
  props: { org: string; as?: Actor; title?: string; parent?: string },
): Promise<Collection> {
  const { org, as = orgAdmin(org), title = `Collection ${++seq}`, ...rest } = props;
  return t.call(ops.createCollection, { organizationId: org, title, ...rest }, as);
}
