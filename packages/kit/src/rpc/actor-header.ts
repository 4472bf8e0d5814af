import { createHmac, timingSafeEqual } from 'node:crypto';
import { ActorSchema, type Actor } from '@quire/contracts';

export const ACTOR_HEADER = 'x-quire-actor';
const CLAIM_TTL_MS = 5 * 60_000;

/**
 * The actor travels from the gateway to a service as `<base64url(claims)>.<base64url(hmac-sha256)>`,
 * claims `{a: actor, exp}`; the secret is shared by the deployment. Signed headers are reusable until
 * they expire, so callers cache them per actor.
 */
export class ActorSigner {
  readonly #secret: Buffer;
  readonly #verified = new Map<string, { actor: Actor; exp: number }>();
  constructor(secret: string) {
    if (secret.length < 32) throw new Error('the internal secret must be at least 32 characters');
    this.#secret = Buffer.from(secret);
  }

  sign(actor: Actor, now = Date.now()): { header: string; exp: number } {
    const exp = now + CLAIM_TTL_MS;
    const claims = Buffer.from(JSON.stringify({ a: actor, exp })).toString('base64url');
    return { header: `${claims}.${this.#mac(claims)}`, exp };
  }

  /** The actor in a signed header, or null when it is missing, forged, malformed or expired. */
  verify(header: string | undefined, now = Date.now()): Actor | null {
    if (!header) return null;
    const cached = this.#verified.get(header);
    if (cached) return cached.exp > now ? cached.actor : null;
    const dot = header.indexOf('.');
    if (dot <= 0) return null;
    const claims = header.slice(0, dot);
    const mac = Buffer.from(header.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.#mac(claims), 'base64url');
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    const exp = (parsed as { exp?: unknown }).exp;
    const actor = ActorSchema.safeParse((parsed as { a?: unknown }).a);
    if (typeof exp !== 'number' || exp <= now || !actor.success) return null;
    if (this.#verified.size > 10_000) this.#verified.clear();
    this.#verified.set(header, { actor: actor.data, exp });
    return actor.data;
  }

  #mac(data: string): string {
    return createHmac('sha256', this.#secret).update(data).digest('base64url');
  }
}
