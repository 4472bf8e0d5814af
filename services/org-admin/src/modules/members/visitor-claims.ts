import { z } from 'zod';
import { RoleOrGuestSchema, type Role } from '@quire/contracts';
import { TokenSigner } from '@quire/kit';

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

const signers = new Map<string, TokenSigner>();
/** The kit's signer of visitor claims: its own purpose (`quire:visitor-claims`), so its own key and audience. */
function signerOf(internalSecret: string): TokenSigner {
  let signer = signers.get(internalSecret);
  if (!signer) signers.set(internalSecret, (signer = new TokenSigner(internalSecret, 'visitor-claims')));
  return signer;
}

export async function signVisitorClaims(
  claims: { userId: string; organizationId: string; role: Role | null; sso: boolean },
  opts: { internalSecret: string; issuer: string; now?: Date },
): Promise<string> {
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  return signerOf(opts.internalSecret).sign(
    {
      sub: claims.userId,
      organization: claims.organizationId,
      role: claims.role,
      sso: claims.sso,
      iss: opts.issuer,
      iat,
    },
    (iat + TTL_SECONDS) * 1000,
  );
}

/** Verifies a `serviceVisitorClaims` token (signature, audience, expiry, issuer, shape); rejects otherwise. */
export async function verifyVisitorClaims(
  token: string,
  opts: { internalSecret: string; issuer: string },
): Promise<VisitorClaims> {
  const payload = await signerOf(opts.internalSecret).verify(token);
  if (payload === 'expired') throw new Error('visitor claims: the token has expired');
  if (payload === 'invalid') throw new Error('visitor claims: invalid signature (or not a visitor-claims token)');
  const claims = VisitorClaimsSchema.parse(payload);
  if (claims.iss !== opts.issuer) throw new Error('visitor claims: unexpected "iss" claim value');
  return claims;
}
