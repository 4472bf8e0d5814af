import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel, roleAtLeast } from '@quire/kit';

export interface MemberAccessFacts {
  organizationId: string;
  /** The member the call is about. */
  userId: string;
}

/**
 * A member's record: other members' records need the right to list members (not guests); a member's own
 * record is always visible to them (guests too). Roles, removals, SSO flags: organization admins.
 */
export const memberPolicy = definePolicy({
  resource: 'Organization',
  role: (actor: Actor, m: MemberAccessFacts) => {
    const level = organizationLevel(actor, m.organizationId);
    if (level === null) return null;
    return actor.kind === 'user' && actor.userId === m.userId && !roleAtLeast(level, 'read') ? 'read' : level;
  },
  actions: { view: 'read', manage: 'admin' },
  refusals: {
    view: 'Guests cannot list the members of the organization',
    manage: 'Only organization admins can manage members',
  },
});
