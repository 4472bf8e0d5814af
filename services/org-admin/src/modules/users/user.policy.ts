import type { Actor } from '@quire/contracts';
import { definePolicy } from '@quire/kit';

export interface UserAccessFacts {
  /** The user the call is about. */
  userId: string;
  /** The organizations it is a member of (guest memberships included). */
  organizations: readonly string[];
}

/**
 * Who may read whom (`getUserById`), from the organizations the user is a member of:
 * - a user reads itself, and anyone who is a member of an organization where the caller is a member with a role
 *   (a guest cannot list the members of its organization, so it reads no one else: see member.policy.ts), e-mail
 *   address included (`read`);
 * - a published site's reader (its renderer draws a page's user mentions) reads the members of the site's
 *   organization, without their e-mail address (`guest`);
 * - nobody else reads anyone (404, as for an unknown user).
 */
export const userPolicy = definePolicy({
  resource: 'User',
  role: (actor: Actor, u: UserAccessFacts) => {
    if (actor.kind === 'reader') return u.organizations.includes(actor.reader.organization) ? 'guest' : null;
    if (actor.kind !== 'user') return null;
    if (actor.userId === u.userId) return 'read';
    return actor.memberships.some((m) => m.role !== null && u.organizations.includes(m.organization)) ? 'read' : null;
  },
  actions: { view: 'guest' },
  permissions: { email: 'read' },
});
