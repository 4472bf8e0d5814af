import { randomBytes } from 'node:crypto';
import { ACTOR_EVICTING_EVENTS, Events, ops, staleActorsOf, type Actor, type EventEnvelope } from '@quire/contracts';
import { DomainError, sha256Hex, type EventBus, type ServiceClients, type Subscription } from '@quire/kit';
import type { KnownTokens } from './known-tokens.ts';

interface Entry {
  actor: Actor;
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
/** `Bearer quire_grant_<nonce>`: an authorization the gateway itself wrote for one request (see `grant`). */
const GRANT_PREFIX = 'quire_grant_';
const GRANT = /^Bearer quire_grant_([A-Za-z0-9_-]{32})$/;

/**
 * `Authorization: Bearer <token>` → actor, asked of org-admin and cached for a short time by the
 * token's SHA-256. Membership, token and organization events evict the actors they make stale: events
 * from the bus (every gateway replica), and the events a call forwarded by this gateway committed (so a
 * caller's own changes are visible to it at once).
 *
 * A token the cache does not hold is first checked against the known tokens (`known-tokens.ts`, with a bus): a token
 * no one was issued is refused there, with no lookup. Without them (no bus, or not loaded yet) it is looked up if
 * `mayLookUp` (the address's failed-authentication budget) allows.
 */
export class ActorResolver {
  readonly #clients: ServiceClients;
  readonly #ttl: number;
  readonly #cache = new Map<string, Entry>();
  readonly #byUser = new Map<string, Set<string>>();
  readonly #anonymous: Actor = { kind: 'anonymous' };
  #subscription: Subscription | undefined;
  readonly #grants = new Map<string, ResolvedActor>();
  readonly #known: KnownTokens | undefined;

  constructor(clients: ServiceClients, ttlMs: number, known?: KnownTokens) {
    this.#clients = clients;
    this.#ttl = ttlMs;
    this.#known = known;
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
      if (event.type === Events.tokenIssued.type) this.#known?.add(Events.tokenIssued.data.parse(event.data).key);
      const stale = staleActorsOf(event);
      for (const user of stale.users) this.evictUser(user);
      for (const organization of stale.organizations) this.evictOrganization(organization);
    }
  }

  async resolve(
    authorization: string | undefined,
    requestId: string,
    mayLookUp?: () => Promise<boolean>,
  ): Promise<ResolvedActor> {
    const now = Date.now();
    // Signed headers are re-used per actor until near their expiry (the kit's `ActorSigner`).
    if (authorization === undefined || authorization === '')
      return { actor: this.#anonymous, header: (await this.#clients.sign(this.#anonymous)).header };
    const granted = GRANT.exec(authorization);
    if (granted) {
      const resolved = this.#grants.get(granted[1]!);
      this.#grants.delete(granted[1]!);
      if (!resolved) throw new DomainError('unauthenticated', 'Invalid or revoked API token');
      return resolved;
    }
    const match = BEARER.exec(authorization);
    if (!match)
      throw new DomainError('unauthenticated', 'Malformed Authorization header: expected `Bearer <API token>`');
    const key = sha256Hex(match[1]!);
    const hit = this.#cache.get(key);
    if (hit && hit.expires > now)
      return { actor: hit.actor, header: (await this.#clients.sign(hit.actor)).header, key };
    const known = await this.#known?.hasFresh(key);
    if (known === false || (known === undefined && mayLookUp && !(await mayLookUp())))
      throw new DomainError('unauthenticated', 'Invalid or revoked API token');
    const { actor } = await this.#clients.asService(ops.resolveToken, { tokenHash: key }, requestId);
    if (!actor) {
      this.#known?.forget(key);
      throw new DomainError('unauthenticated', 'Invalid or revoked API token');
    }
    const signed = await this.#clients.sign(actor);
    if (this.#ttl > 0) {
      if (this.#cache.size > 100_000) this.#cache.clear();
      this.#cache.set(key, { actor, expires: now + this.#ttl });
      if (actor.kind === 'user') {
        let keys = this.#byUser.get(actor.userId);
        if (!keys) this.#byUser.set(actor.userId, (keys = new Set()));
        keys.add(key);
      }
    }
    return { actor, header: signed.header, key };
  }

  /**
   * An authorization for one request, standing for an actor the gateway established itself (a published-content
   * api token checked against the route it calls, `published.ts`): `resolve` answers it once, then forgets it.
   * `key` is the rate-limit key of the original credential. `release` drops it if the request never resolved it.
   */
  async grant(actor: Actor, key: string): Promise<{ authorization: string; release(): void }> {
    const nonce = randomBytes(24).toString('base64url');
    const { header } = await this.#clients.sign(actor);
    if (this.#grants.size > 10_000) this.#grants.clear();
    this.#grants.set(nonce, { actor, header, key });
    return { authorization: `Bearer ${GRANT_PREFIX}${nonce}`, release: () => void this.#grants.delete(nonce) };
  }

  evictUser(userId: string): void {
    for (const key of this.#byUser.get(userId) ?? []) this.#cache.delete(key);
    this.#byUser.delete(userId);
  }

  evictOrganization(organizationId: string): void {
    for (const [key, entry] of this.#cache) {
      if (entry.actor.kind === 'user' && entry.actor.memberships.some((m) => m.organization === organizationId))
        this.#cache.delete(key);
    }
  }

  async close(): Promise<void> {
    await this.#subscription?.stop();
  }
}
