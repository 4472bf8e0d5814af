import { z } from 'zod';
import { TokenSigner } from './tokens.ts';

/**
 * The `apiToken` of a published-content lookup (`POST /v1/urls/published`), signed by the sites service and
 * checked by the gateway on every call made with it: the kit's `TokenSigner` (a JWT, HS256, audience
 * `quire:published-content`, a key of its own derived from the deployment's internal secret), naming the site,
 * the site space and space the URL resolved to, the share key a share-link site was opened with, and the
 * visitor's claims (`{unsigned: {}}` for an anonymous reader). The gateway turns it into a reader actor; what a
 * reader may read is the services' policies' to say.
 *
 * It is stable for a visitor: it expires `TTL_SECONDS` after the start of the current `WINDOW_SECONDS` window, so
 * the same lookup gives the same token for a quarter of an hour (renderers key their caches on it) and a token
 * handed out always has more than 45 minutes left (GitBook's renderer asks again when less than 120 s are left).
 */
export const TTL_SECONDS = 3600;
export const WINDOW_SECONDS = 900;

const Id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** What an api token says (checked when verified: a token of another shape is refused). */
export const ApiTokenClaimsSchema = z.object({
  site: Id,
  organization: Id,
  siteSpace: Id,
  space: Id,
  shareKey: z.string().min(1).max(200).optional(),
  /** The visitor's claims: the signed ones of its JWT, the unsigned ones under `unsigned`. */
  claims: z.record(z.string(), z.unknown()),
});
export type ApiTokenClaims = z.infer<typeof ApiTokenClaimsSchema>;

const signers = new Map<string, TokenSigner>();
function signerOf(secret: string): TokenSigner {
  let signer = signers.get(secret);
  if (!signer) signers.set(secret, (signer = new TokenSigner(secret, 'published-content')));
  return signer;
}

/** The api token of a lookup made at `now` (epoch milliseconds). */
export function signApiToken(secret: string, c: ApiTokenClaims, now = Date.now()): Promise<string> {
  const windowStart = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  const payload: ApiTokenClaims = {
    site: c.site,
    organization: c.organization,
    siteSpace: c.siteSpace,
    space: c.space,
    ...(c.shareKey ? { shareKey: c.shareKey } : {}),
    claims: c.claims,
  };
  return signerOf(secret).sign(payload, (windowStart + TTL_SECONDS) * 1000);
}

/** The claims of an api token this deployment signed, of the right shape and not expired at `now`; null otherwise. */
export async function verifyApiToken(
  secret: string,
  token: string,
  now = Date.now(),
): Promise<(ApiTokenClaims & { exp: number }) | null> {
  const payload = await signerOf(secret).verify(token, now);
  if (typeof payload === 'string') return null;
  const parsed = ApiTokenClaimsSchema.safeParse(payload);
  return parsed.success ? { ...parsed.data, exp: payload.exp } : null;
}
