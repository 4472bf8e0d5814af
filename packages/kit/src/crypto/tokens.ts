import { hkdfSync } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

/**
 * What a token is for. Each purpose has its own key and its own audience (`quire:<purpose>`): a token signed for
 * one purpose is never accepted for another, even by code that forgot to check.
 */
export type TokenPurpose =
  /** The actor of an internal call (`x-quire-actor`, kit `rpc/actor-header.ts`). */
  | 'actor'
  /** A signed download link (`/v1/downloads/<token>`, kit `blobs/signed-links.ts`). */
  | 'download'
  /** The `apiToken` of a published-content lookup, a reader's bearer token (kit `crypto/published-api-token.ts`). */
  | 'published-content'
  /** The hidden field of a published page's "Was this page helpful?" form (sites `insights/rating.ts`). */
  | 'site-rating'
  /** A sign-in session cookie (org-admin `sessions.ts`). */
  | 'session'
  /** The cookie binding a single sign-on in progress to its browser (org-admin `sso.ts`). */
  | 'sso-state'
  /** The member claims `POST /v1/orgs/{o}/ping` answers (`serviceVisitorClaims`, org-admin `visitor-claims.ts`). */
  | 'visitor-claims'
  /** A signed upload URL of a file (`/v1/storage/uploads/<token>`, sites `fonts/storage-upload.ts`). */
  | 'storage-upload';

/** Why a token was refused: `expired` (its signature held), or `invalid` (anything else). */
export type TokenRefusal = 'expired' | 'invalid';

const ALG = 'HS256';
/**
 * The one spelling of an HS256 signature: 32 bytes are 43 base64url characters, the last with its two low bits
 * clear. Decoding ignores those bits, so without this check four spellings of a token would verify alike.
 */
const CANONICAL_SIGNATURE = /\.[\w-]{42}[AEIMQUYcgkosw048]$/;

/**
 * The one way to sign a token: a compact JWS (a JWT, HS256, jose) whose claims carry the purpose as `aud` and the
 * expiry as `exp` (seconds), signed with a key derived by HKDF-SHA256 from the deployment's internal secret and
 * the purpose (info `quire/token/<purpose>/v1`). URL- and cookie-safe (base64url and dots).
 */
export class TokenSigner<Claims extends Record<string, unknown> = Record<string, unknown>> {
  readonly purpose: TokenPurpose;
  readonly #audience: string;
  readonly #key: Promise<CryptoKey>;

  constructor(secret: string, purpose: TokenPurpose) {
    if (secret.length < 32) throw new Error('the internal secret must be at least 32 characters');
    this.purpose = purpose;
    this.#audience = `quire:${purpose}`;
    const raw = new Uint8Array(hkdfSync('sha256', secret, 'quire', `quire/token/${purpose}/v1`, 32));
    // Imported once (jose would import a raw key again on every call).
    this.#key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  /** A token of `claims` that expires at `expiresAt` (epoch milliseconds, rounded down to the second). */
  async sign(claims: Claims, expiresAt: number): Promise<string> {
    if (!Number.isFinite(expiresAt)) throw new Error('a token needs an expiry');
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALG })
      .setAudience(this.#audience)
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(await this.#key);
  }

  /**
   * The claims of `token` (with `exp`, in seconds) when it is this purpose's, its signature holds and it has not
   * expired at `now`; else why not. Claims are as signed: check their shape.
   */
  async verify(token: string, now = Date.now()): Promise<(JWTPayload & { exp: number }) | TokenRefusal> {
    if (!CANONICAL_SIGNATURE.test(token)) return 'invalid';
    try {
      const { payload } = await jwtVerify(token, await this.#key, {
        algorithms: [ALG],
        audience: this.#audience,
        requiredClaims: ['exp'],
        currentDate: new Date(now),
      });
      return payload as JWTPayload & { exp: number };
    } catch (err) {
      // jose checks the signature before the claims: an expired token was signed with this key.
      if (err instanceof errors.JWTExpired) return 'expired';
      if (err instanceof errors.JOSEError || err instanceof TypeError) return 'invalid';
      throw err;
    }
  }
}
