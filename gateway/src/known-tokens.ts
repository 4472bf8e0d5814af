import { ops } from '@quire/contracts';
import type { Logger, ServiceClients } from '@quire/kit';

/** How often the whole set is loaded again (what a best-effort listener may have missed is learned by then). */
const RELOAD_MS = 5 * 60_000;
/** How soon a load that failed (org-admin not up yet) is tried again. */
const RETRY_MS = 5_000;
const PAGE = 10_000;
/**
 * A key not in the set loads the set again first, at most this often (for every caller together): a token issued
 * where this gateway did not hear of it (an event lost, a replica on another bus) works within this time rather
 * than at the next five-minute load, and a flood of forged tokens still costs at most one load per interval.
 */
const MISS_RELOAD_MS = 15_000;

/** A token's key: the first 16 hex digits of its SHA-256 (64 bits: a forger cannot aim at one, collisions are harmless). */
export const tokenKeyOf = (hash: string): string => hash.slice(0, 16);

/**
 * The keys of every bearer token that resolves (active API tokens, the instance admin's), so that a forged token is
 * refused without asking org-admin: a flood of them costs no database lookup, and the failed-authentication limit
 * can throttle the forged tokens alone. Loaded from org-admin (`auth.listTokenKeys`) at start and every five
 * minutes, and kept fresh in between by `token.issued` events: from the bus, which every gateway replica listens to
 * (a token issued through one replica reaches the others within milliseconds), and from the calls this gateway
 * forwarded (its own callers' new tokens, at once). A key is only a filter: a token it lets through is still looked
 * up (and cached) as before; a revoked token's key is dropped when its lookup finds nobody.
 *
 * `has` answers `undefined` until the first load succeeded: the resolver then looks the token up, within the
 * address's failed-authentication budget.
 */
export class KnownTokens {
  readonly #clients: ServiceClients;
  readonly #log: Logger;
  #keys: Set<string> | undefined;
  /** Keys learned while a load runs: added to the loaded set when it is swapped in. */
  #learned: Set<string> | undefined;
  #loading: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** When the last load started (ms since the epoch). */
  #loadedAt = 0;

  constructor(clients: ServiceClients, log: Logger) {
    this.#clients = clients;
    this.#log = log;
  }

  /** true: a token may have this hash (look it up); false: none has; undefined: not loaded yet. */
  has(hash: string): boolean | undefined {
    return this.#keys?.has(tokenKeyOf(hash));
  }

  /**
   * As `has`, but a key not in the set first loads the set again if the last load is older than 15 s (one load at
   * a time, shared by every caller), then answers from the fresh set.
   */
  async hasFresh(hash: string, now = Date.now()): Promise<boolean | undefined> {
    const known = this.has(hash);
    if (known !== false || now - this.#loadedAt < MISS_RELOAD_MS) return known;
    try {
      await this.load();
    } catch (err) {
      this.#log.warn({ err }, 'known tokens not reloaded on a miss; the loaded set answers');
    }
    return this.has(hash);
  }

  /** A token issued (its key, from a `token.issued` event). */
  add(key: string): void {
    this.#keys?.add(key);
    this.#learned?.add(key);
  }

  /** A token whose lookup found nobody (revoked): its key goes. */
  forget(hash: string): void {
    this.#keys?.delete(tokenKeyOf(hash));
  }

  get size(): number {
    return this.#keys?.size ?? 0;
  }

  /** Loads the keys now (once at a time), then again every five minutes; a failed load is tried again soon. */
  start(): Promise<void> {
    return this.#run();
  }

  /** Loads every key, a page at a time; the new set replaces the old one once complete. */
  async load(): Promise<void> {
    this.#loading ??= this.#loadAll().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async #run(): Promise<void> {
    let next = RELOAD_MS;
    try {
      await this.load();
    } catch (err) {
      next = RETRY_MS;
      this.#log.warn({ err }, 'known tokens not loaded; every token is looked up until they are');
    }
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#run(), next);
    this.#timer.unref();
  }

  async #loadAll(): Promise<void> {
    this.#loadedAt = Date.now();
    const keys = new Set<string>();
    this.#learned = new Set();
    try {
      let after: string | undefined;
      do {
        const page = await this.#clients.asService(
          ops.listTokenKeys,
          { limit: PAGE, ...(after ? { after } : {}) },
          'known-tokens',
        );
        for (const key of page.keys) keys.add(key);
        after = page.next ?? undefined;
      } while (after);
      for (const key of this.#learned) keys.add(key);
      this.#keys = keys;
    } finally {
      this.#learned = undefined;
    }
  }
}
