import type { Actor, TranslationSettings } from '@quire/contracts';
import { forbidden, membershipOf, roleAtLeast } from '@quire/kit';
import { requireMembership } from '../organizations/organization.policy.ts';

export type TranslationPermissions = TranslationSettings['permissions'];

/** Members (not guests) may read translation settings; organization admins edit them. */
export function translationPermissions(actor: Actor, organizationId: string): TranslationPermissions {
  const role = membershipOf(actor, organizationId)?.role ?? null;
  return { view: role !== null, edit: roleAtLeast(role, 'admin') };
}

/** Outsiders get 404, guests 403. */
export function assertCanViewTranslations(actor: Actor, organizationId: string): TranslationPermissions {
  requireMembership(actor, organizationId);
  const p = translationPermissions(actor, organizationId);
  if (!p.view) throw forbidden('Guests cannot read translation settings');
  return p;
}

export function assertCanEditTranslations(actor: Actor, organizationId: string): TranslationPermissions {
  const p = assertCanViewTranslations(actor, organizationId);
  if (!p.edit) throw forbidden('Only organization admins can manage translation settings');
  return p;
}
