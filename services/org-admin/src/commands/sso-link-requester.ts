import { sha256Hex, type EntityManager } from '@quire/kit';
import { SsoLink, type ISsoLink } from '../modules/oidc/oidc-provider.entity.ts';
import { randomToken } from '../modules/sessions/sessions.ts';

/** How long the owner of an account has to confirm a link asked for by an identity provider. */
export const SSO_LINK_TTL_MS = 10 * 60 * 1000;

export interface SsoLinkRequesterProps {
  kind: 'oidc' | 'saml';
  providerId: string;
  subject: string;
  /** The existing account whose e-mail the provider asserted (the signed-in user). */
  userId: string;
  name: string | null;
  next: string;
  now?: Date;
}

/**
 * Records a link of an identity to an existing account waiting for its owner's confirmation; answers the token of the
 * confirmation form (only its SHA-256 is stored). Expired requests are dropped.
 */
export async function ssoLinkRequester(em: EntityManager, props: SsoLinkRequesterProps): Promise<string> {
  const { now = new Date(), ...rest } = props;
  const token = randomToken();
  em.create(SsoLink, {
    ...rest,
    hash: sha256Hex(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SSO_LINK_TTL_MS),
    usedAt: null,
  });
  await em.nativeDelete(SsoLink, { expiresAt: { $lt: now } });
  return token;
}

/** Claims a link request once (a conditional update: two confirmations racing link once); false when it cannot. */
export async function ssoLinkClaimer(em: EntityManager, link: ISsoLink, now = new Date()): Promise<boolean> {
  return (
    (await em.nativeUpdate(SsoLink, { hash: link.hash, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now })) === 1
  );
}
