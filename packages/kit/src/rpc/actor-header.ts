import { LRUCache } from 'lru-cache';
import { ActorSchema, type Actor } from '@quire/contracts';
import { TokenSigner } from '../crypto/tokens.ts';

export const ACTOR_HEADER = 'x-quire-actor';
const CLAIM_TTL_MS = 5 * 60_000;
/** A signed header is re-used for its actor until it has less than this left. */
const RESIGN_BEFORE_MS = 60_000;
/**
 * How many actors' signed headers, and how many verified headers, are kept, and at most how many characters of
 * them (an actor of many organizations makes a long header): the least recently used are dropped.
 */
const CACHED = { max: 10_000, maxSize: 32 * 1024 * 1024, sizeCalculation: (_: unknown, key: string) => key.length + 1 };

/** A signed actor header and its expiry (epoch milliseconds). */
export interface SignedActor {
  header: string;
  exp: number;
}

type Signing = { exp: number; header: Promise<string> };
/** Whether a header signed until `exp` may be handed out at `now`: it has a minute left, and was not signed later. */
const usable = (s: Signing | undefined, now: number): s is Signing =>
  s !== undefined && s.exp - now >= RESIGN_BEFORE_MS && s.exp <= now + CLAIM_TTL_MS;

/**
 * The actor travels from the gateway to a service as a token of the kit's `TokenSigner` (purpose `actor`),
 * claims `{actor}`, valid five minutes; the secret is shared by the deployment. Signing and verifying are
 * asynchronous (jose), so both are cached: a signed header is re-used for the same actor until it is near its
 * expiry, and a verified header maps to its actor until it expires, each in a bounded LRU.
 */
export class ActorSigner {
  readonly #tokens: TokenSigner<{ actor: Actor }>;
  readonly #signed = new LRUCache<string, Signing>(CACHED);
  /** The same actor object (a gateway's cached actor, a verified header's) skips serializing it to find its header. */
  readonly #signedFor = new WeakMap<Actor, Signing>();
  readonly #verified = new LRUCache<string, { actor: Actor; exp: number }>(CACHED);

  constructor(secret: string) {
    this.#tokens = new TokenSigner(secret, 'actor');
  }

  /** A header carrying `actor`, valid at least one more minute from `now` (re-used while it is). */
  async sign(actor: Actor, now = Date.now()): Promise<SignedActor> {
    let entry = this.#signedFor.get(actor);
    if (!usable(entry, now)) {
      const key = JSON.stringify(actor);
      entry = this.#signed.get(key);
      if (!usable(entry, now)) {
        // JWT expiries are whole seconds.
        const exp = Math.floor((now + CLAIM_TTL_MS) / 1000) * 1000;
        entry = { exp, header: this.#tokens.sign({ actor }, exp) };
        this.#signed.set(key, entry);
      }
      this.#signedFor.set(actor, entry);
    }
    return { header: await entry.header, exp: entry.exp };
  }

  /** The actor in a signed header, or null when it is missing, forged, malformed, of another purpose or expired. */
  async verify(header: string | undefined, now = Date.now()): Promise<Actor | null> {
    if (!header) return null;
    const cached = this.#verified.get(header);
    if (cached) return cached.exp > now ? cached.actor : null;
    const claims = await this.#tokens.verify(header, now);
    if (typeof claims === 'string') return null;
    const actor = ActorSchema.safeParse(claims.actor);
    if (!actor.success) return null;
    this.#verified.set(header, { actor: actor.data, exp: claims.exp * 1000 });
    return actor.data;
  }
}
