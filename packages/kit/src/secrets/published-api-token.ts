import { hkdfSync } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/**
 * The `apiToken` of a published-content lookup (signed by the sites service, checked by the gateway on every
 * published-content read: one module, so both agree on the key and the claims): a JWT (HS256) naming the site, site space and space the URL
 * resolved to and the visitor's claims, signed with a key derived (HKDF-SHA256, a label of its own) from the
 * deployment's internal secret — never the secret itself, nor a site's visitor-auth key.
 *
 * It is stable for a visitor: issued at the start of the current `WINDOW_SECONDS` window and valid
 * `TTL_SECONDS` from then, so the same lookup gives the same token for a quarter of an hour (renderers key
 * their caches on it) and a token handed out always has more than 45 minutes left.
 */
export const TTL_SECONDS = 3600;
export const WINDOW_SECONDS = 900;
const ALG = 'HS256';
export const API_TOKEN_AUDIENCE = 'quire:published-content';

/** What an api token says. */
export interface ApiTokenClaims {
  site: string;
  organization: string;
  siteSpace: string;
  space: string;
  shareKey?: string;
  /** The visitor's claims: the signed ones of its JWT, the unsigned ones under `unsigned`. */
  claims: Record<string, unknown>;
}

const keys = new Map<string, Uint8Array>();
function keyOf(secret: string): Uint8Array {
  let key = keys.get(secret);
  if (!key)
    keys.set(
      secret,
      (key = new Uint8Array(hkdfSync('sha256', secret, 'quire', 'quire/published-content-api-token/v1', 32))),
    );
  return key;
}

export async function signApiToken(
  secret: string,
  issuer: string,
  c: ApiTokenClaims,
  now = new Date(),
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  const payload = {
    site: c.site,
    organization: c.organization,
    siteSpace: c.siteSpace,
    space: c.space,
    ...(c.shareKey ? { shareKey: c.shareKey } : {}),
    claims: c.claims,
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: ALG, typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(API_TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TTL_SECONDS)
    .sign(keyOf(secret));
}

/** The claims of an api token this deployment signed and that has not expired; null otherwise. */
export async function verifyApiToken(
  secret: string,
  issuer: string,
  token: string,
  now = new Date(),
): Promise<(ApiTokenClaims & { exp: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: [ALG],
      issuer,
      audience: API_TOKEN_AUDIENCE,
      currentDate: now,
    });
    return payload as unknown as ApiTokenClaims & { exp: number };
  } catch (err) {
    if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
