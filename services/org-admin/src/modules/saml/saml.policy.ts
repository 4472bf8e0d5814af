import type { Actor } from '@quire/contracts';
import { assertCanAdmin } from '../organizations/organization.policy.ts';

/** SAML providers (reading them included: they hold the identity provider's settings) are for organization admins. */
export function assertCanManageSaml(actor: Actor, organizationId: string): void {
  assertCanAdmin(actor, organizationId, 'Only organization admins can manage SAML providers');
}
