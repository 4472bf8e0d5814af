import { sha256Hex, type EntityManager } from '@quire/kit';
import { SamlAssertion, SsoFlow, type ISsoFlow } from '../modules/oidc/oidc-provider.entity.ts';

export interface SsoFlowStarterProps {
  flow: Pick<ISsoFlow, 'kind' | 'providerId' | 'codeVerifier' | 'nonce' | 'requestId'> & {
    /** The OIDC state or SAML RelayState: only its SHA-256 is stored, what the callback checks. */
    state: string;
  };
  /** Where the browser goes once signed in (a path of this site). */
  next: string;
  ttlMs: number;
  now?: Date;
}

/** A sign-in with an identity provider begins: its flow is stored until `ttlMs`, and expired flows are dropped. */
export async function ssoFlowStarter(
  em: EntityManager,
  { flow, next, ttlMs, now = new Date() }: SsoFlowStarterProps,
): Promise<void> {
  const { state, ...rest } = flow;
  em.create(SsoFlow, {
    ...rest,
    hash: sha256Hex(state),
    next,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
    usedAt: null,
  });
  await em.nativeDelete(SsoFlow, { expiresAt: { $lt: now } });
}

/**
 * Claims a flow once, by a conditional update: the same callback replayed (or racing) signs in nobody a second time.
 * False when it is used, expired or unknown.
 */
export async function ssoFlowClaimer(
  em: EntityManager,
  { hash, now = new Date() }: { hash: string; now?: Date },
): Promise<boolean> {
  return (await em.nativeUpdate(SsoFlow, { hash, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now })) === 1;
}

/**
 * Records a SAML assertion as consumed (kept until it expires; expired ones are dropped): false, and nothing
 * recorded, when the same assertion was already used.
 */
export async function samlAssertionRecorder(
  em: EntityManager,
  { id, expiresAt, now = new Date() }: { id: string; expiresAt: Date; now?: Date },
): Promise<boolean> {
  if (await em.findOne(SamlAssertion, { id })) return false;
  em.create(SamlAssertion, { id, expiresAt });
  await em.nativeDelete(SamlAssertion, { expiresAt: { $lt: now } });
  return true;
}
