import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel } from '@quire/kit';

/** Translation settings: members (not guests) read them, organization admins edit them; outsiders get 404. */
export const translationPolicy = definePolicy({
  resource: 'Organization',
  role: (actor: Actor, t: { organizationId: string }) => organizationLevel(actor, t.organizationId),
  actions: { view: 'read', edit: 'admin' },
  refusals: {
    view: 'Guests cannot read translation settings',
    edit: 'Only organization admins can manage translation settings',
  },
  permissions: { view: 'read', edit: 'admin' },
});
