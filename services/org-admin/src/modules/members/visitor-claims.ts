import { hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { RoleOrGuestSchema, type Role } from '@quire/contracts';

/** The claims `POST /v1/orgs/{organizationId}/ping` signs for the calling member (`sub` is the user id). */
const VisitorClaimsSchema = z.object({
  sub: z.string(),
  organization: z.string(),
  role: RoleOrGuestSchema,
  sso: z.boolean(),
  iss: z.string(),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type VisitorClaims = z.infer<typeof VisitorClaimsSchema>;

const TTL_SECONDS = 3600;
const ALG = 'HS256';
const keys = new Map<string, Uint8Array>();

/**
 * The HMAC key of visitor claims: HKDF-SHA256 of the deployment's internal secret with a label of its own,
 * so the JWT key is never the raw secret nor the key that signs internal actor headers.
 */
export function visitorClaimsKey(internalSecret: string): Uint8Array {
  let key = keys.get(internalSecret);
  if (!key) {
    key = new Uint8Array(hkdfSync('sha256', internalSecret, 'quire', 'quire/service-visitor-claims/v1', 32));
    keys.set(internalSecret, key);
  }
  return key;
}

export async function signVisitorClaims(
  claims: { userId: string; organizationId: string; role: Role | null; sso: boolean },
  opts: { internalSecret: string; issuer: string; now?: Date },
): Promise<string> {
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  return new SignJWT({ organization: claims.organizationId, role: claims.role, sso: claims.sso })
    .setProtectedHeader({ alg: ALG, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(opts.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TTL_SECONDS)
    .sign(visitorClaimsKey(opts.internalSecret));
}

/** Verifies a `serviceVisitorClaims` token (signature, issuer, expiry); rejects with jose's error otherwise. */
export async function verifyVisitorClaims(
  token: string,
  opts: { internalSecret: string; issuer: string },
): Promise<VisitorClaims> {
  const { payload } = await jwtVerify(token, visitorClaimsKey(opts.internalSecret), {
    algorithms: [ALG],
    issuer: opts.issuer,
  });
  return VisitorClaimsSchema.parse(payload);
}
