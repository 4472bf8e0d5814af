import { errors, jwtVerify } from 'jose';
import type { EntityManager } from '@quire/kit';
import { openPrivateKey, type KeyBoxConfig } from './private-key.ts';
import { publishingAuthRepository } from './publishing-auth.repository.ts';

/** Visitor JWTs longer than this are refused before any work. */
export const VISITOR_TOKEN_MAX = 8192;

/**
 * The claims of a visitor JWT for a site, as GitBook's visitor authentication checks them: signed HS256 with
 * the site's publishing-auth private key as the secret (`getSitePublishingAuthById`'s `privateKey`), not
 * expired (`exp`, when present; `nbf` likewise; 30 s clock tolerance). Null when the token is malformed, signed
 * with another key or algorithm, expired, too long, or the site has no publishing auth yet (no key, so no
 * token can be valid), or its key is sealed with a secrets key no longer configured. The registered claims
 * (`exp`, `iat`…) are part of the answer, as in the token.
 */
export async function verifyVisitorToken(
  em: EntityManager,
  siteId: string,
  token: string,
  config: KeyBoxConfig,
): Promise<Record<string, unknown> | null> {
  if (!token || token.length > VISITOR_TOKEN_MAX) return null;
  const auth = await publishingAuthRepository.find(em, siteId);
  if (!auth) return null;
  let key: Uint8Array;
  try {
    key = new TextEncoder().encode(openPrivateKey(config, siteId, auth.privateKeySealed));
  } catch {
    // Sealed with a secrets key no longer configured: no token can be checked (the reseal job logs it).
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], clockTolerance: 30 });
    return { ...payload };
  } catch (err) {
    if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}

/**
 * Where a visitor of the site who may not read it is sent to sign in (GitBook's `fallbackURL`), and where to
 * sign out (`logoutURL`); null for each when the site has none set.
 */
export async function visitorAuthUrls(
  em: EntityManager,
  siteId: string,
): Promise<{ fallbackURL: string | null; logoutURL: string | null }> {
  const auth = await publishingAuthRepository.find(em, siteId);
  return { fallbackURL: auth?.fallbackUrl ?? null, logoutURL: auth?.logoutUrl ?? null };
}
