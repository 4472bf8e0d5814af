import { ACTOR_EVICTING_EVENTS, ops, staleActorsOf, type Actor, type EventEnvelope } from '@quire/contracts';
import { DomainError, sha256Hex, type EventBus, type ServiceClients, type Subscription } from '@quire/kit';

interface Entry {
  actor: Actor;
  header: string;
  headerExp: number;
  expires: number;
}

export interface ResolvedActor {
  actor: Actor;
  /** The signed internal header carrying the actor to services. */
  header: string;
  /** Cache key of the token (its SHA-256), absent for anonymous calls. */
  key?: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * `Authorization: Bearer <token>` → actor, asked of org-admin and cached for a short time by the
 * token's SHA-256. Membership, token and organization events evict the actors they make stale: events
 * from the bus (every gateway replica), and the events a call forwarded by this gateway committed (so a
 * caller's own changes are visible to it at once).
 */
export class ActorResolver {
  readonly #clients: ServiceClients;
  readonly #ttl: number;
  readonly #cache = new Map<string, Entry>();
  readonly #byUser = new Map<string, Set<string>>();
  readonly #anonymous: Actor = { kind: 'anonymous' };
  #anonymousHeader: { header: string; exp: number } | undefined;
  #subscription: Subscription | undefined;

  constructor(clients: ServiceClients, ttlMs: number) {
    this.#clients = clients;
    this.#ttl = ttlMs;
  }

  async listen(bus: EventBus): Promise<void> {
    this.#subscription = await bus.listen(
      ACTOR_EVICTING_EVENTS.map((e) => e.subject),
      async (envelope) => this.evictFor([envelope]),
    );
  }

  /** Drops the cached actors these events make stale (payloads parsed with their contract schemas). */
  evictFor(events: readonly EventEnvelope[]): void {
    for (const event of events) {
      const stale = staleActorsOf(event);
      for (const user of stale.users) this.evictUser(user);
      for (const organization of stale.organizations) this.evictOrganization(organization);
    }
  }

  async resolve(authorization: string | undefined, requestId: string): Promise<ResolvedActor> {
    const now = Date.now();
    if (authorization === undefined || authorization === '') {
      if (!this.#anonymousHeader || this.#anonymousHeader.exp - now < 60_000) this.#anonymousHeader = this.#clients.sign(this.#anonymous);
      return { actor: this.#anonymous, header: this.#anonymousHeader.header };
    }
    const match = BEARER.exec(authorization);
    if (!match) throw new DomainError('unauthenticated', 'Malformed Authorization header: expected `Bearer <API token>`');
    const key = sha256Hex(match[1]!);
    const hit = this.#cache.get(key);
    if (hit && hit.expires > now) {
      if (hit.headerExp - now < 60_000) {
        const signed = this.#clients.sign(hit.actor);
        hit.header = signed.header;
        hit.headerExp = signed.exp;
      }
      return { actor: hit.actor, header: hit.header, key };
    }
    const { actor } = await this.#clients.asService(ops.resolveToken, { tokenHash: key }, requestId);
    if (!actor) throw new DomainError('unauthenticated', 'Invalid or revoked API token');
    const signed = this.#clients.sign(actor);
    if (this.#ttl > 0) {
      if (this.#cache.size > 100_000) this.#cache.clear();
      this.#cache.set(key, { actor, header: signed.header, headerExp: signed.exp, expires: now + this.#ttl });
      if (actor.kind === 'user') {
        let keys = this.#byUser.get(actor.userId);
        if (!keys) this.#byUser.set(actor.userId, (keys = new Set()));
        keys.add(key);
      }
    }
    return { actor, header: signed.header, key };
  }

  evictUser(userId: string): void {
    for (const key of this.#byUser.get(userId) ?? []) this.#cache.delete(key);
    this.#byUser.delete(userId);
  }

  evictOrganization(organizationId: string): void {
    for (const [key, entry] of this.#cache) {
      if (entry.actor.kind === 'user' && entry.actor.memberships.some((m) => m.organization === organizationId)) this.#cache.delete(key);
    }
  }

  async close(): Promise<void> {
    await this.#subscription?.stop();
  }
}

/** Fixed one-minute windows per key; `limit` 0 turns it off. */
export class RateLimiter {
  readonly #limit: number;
  readonly #windows = new Map<string, { start: number; count: number }>();
  constructor(limitPerMinute: number) {
    this.#limit = limitPerMinute;
  }

  /** Seconds to wait when over the limit, else 0. */
  hit(key: string, now = Date.now()): number {
    if (this.#limit === 0) return 0;
    const w = this.#windows.get(key);
    if (!w || now - w.start >= 60_000) {
      if (this.#windows.size > 100_000) this.#windows.clear();
      this.#windows.set(key, { start: now, count: 1 });
      return 0;
    }
    w.count++;
    return w.count > this.#limit ? Math.ceil((w.start + 60_000 - now) / 1000) : 0;
  }
}
