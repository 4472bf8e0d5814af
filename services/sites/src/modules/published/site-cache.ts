import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Events, type EventEnvelope } from '@quire/contracts';
import type { EntityManager, LiveListenerSpec } from '@quire/kit';
import { Site, type ISite } from '../sites/site.entity.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { evictSpace } from './content-source.ts';

/**
 * The published sites this process serves, in memory: a site found by its custom hostname or its basename,
 * with its whole structure (sections, site spaces, the projected titles and trash state of their spaces) and
 * the structure's fingerprint (part of the rendered pages' cache keys). A cached page is then served without
 * a database statement; share keys and visitor tokens are still checked against the database on each request
 * (audience.ts), so a revoked link or a new signing key takes effect at once everywhere.
 *
 * Kept fresh by:
 * - the mutations of this process (sites/trpc.ts): a site whose change is being written is evicted, and not
 *   cached again for `UNSETTLED_MS` (its transaction commits within that): this process serves the change as
 *   soon as it is committed;
 * - the live listener (every process hears every event, `sitesCacheListener`): `site.*` events evict the site
 *   — another process serves a change (an unpublish, a new path, a section) within the event's delivery
 *   (the outbox relay, then the bus: about a second); space events evict the sites showing the space and keep
 *   them uncached for `UNSETTLED_MS` while the `content_space` projection (a durable consumer, in one process)
 *   catches up;
 * - `SNAPSHOT_TTL_MS` at most, for an event a process missed (the live listener is best effort).
 * An eviction also voids the loads in flight (`generation`), so a structure read before a change is never
 * stored after it.
 */
export const SNAPSHOT_TTL_MS = 60_000;
export const UNSETTLED_MS = 10_000;

export interface SiteSnapshot {
  site: ISite;
  tree: SiteTree;
  /** A fingerprint of the structure as rendered (titles and paths of what shows): part of the cache keys. */
  fingerprint: string;
}

/** How a published site is looked up: by its custom hostname, or by its basename. */
export type SiteKey = { hostname: string } | { basename: string };

const snapshots = new LRUCache<string, SiteSnapshot>({ max: 2_000, ttl: SNAPSHOT_TTL_MS });
const unsettledSites = new Map<string, number>();
const unsettledSpaces = new Map<string, number>();
let generation = 0;

/** The published site a key finds: by custom hostname only once the DNS proved the organization controls it. */
export const publishedSiteWhere = (by: SiteKey) => ({
  ...by,
  ...('hostname' in by ? { hostnameVerified: true } : {}),
  published: true,
});

const keyOf = (by: SiteKey) => ('hostname' in by ? `h:${by.hostname}` : `b:${by.basename}`);

function unsettled(marks: Map<string, number>, id: string, now: number): boolean {
  const until = marks.get(id);
  if (until === undefined) return false;
  if (until > now) return true;
  marks.delete(id);
  return false;
}

export function fingerprintOf(site: ISite, tree: SiteTree): string {
  const parts = [
    site.updatedAt.toISOString(),
    site.title,
    ...tree.spaces.map((t) => `${t.entity.id}:${t.projectedTitle}:${t.hidden}`),
  ];
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 16);
}

async function load(em: EntityManager, by: SiteKey): Promise<SiteSnapshot | null> {
  const site = await em.findOne(Site, publishedSiteWhere(by));
  if (!site) return null;
  const tree = await SiteTree.load(em, site.id);
  return { site, tree, fingerprint: fingerprintOf(site, tree) };
}

/** The published site by hostname or basename, with its structure: from memory when this process holds it. */
export async function publishedSiteSnapshot(em: EntityManager, by: SiteKey): Promise<SiteSnapshot | null> {
  const key = keyOf(by);
  const hit = snapshots.get(key);
  if (hit) return hit;
  const started = generation;
  const loaded = await load(em, by);
  if (!loaded || started !== generation) return loaded;
  const now = Date.now();
  if (unsettled(unsettledSites, loaded.site.id, now)) return loaded;
  if (loaded.tree.spaces.some((t) => unsettled(unsettledSpaces, t.entity.spaceId, now))) return loaded;
  snapshots.set(key, loaded);
  return loaded;
}

/** Forgets a site (every key it was found by); `settleMs`: and does not cache it again for that long. */
export function evictSite(siteId: string, settleMs = 0): void {
  generation++;
  if (settleMs > 0) unsettledSites.set(siteId, Date.now() + settleMs);
  dropWhere((s) => s.site.id === siteId);
}

/** Forgets the sites that show a space (its title or trash state changed), until the projection settles. */
export function evictSpaceSites(spaceId: string, settleMs = UNSETTLED_MS): void {
  generation++;
  unsettledSpaces.set(spaceId, Date.now() + settleMs);
  dropWhere((s) => s.tree.spaces.some((t) => t.entity.spaceId === spaceId));
}

function dropWhere(test: (s: SiteSnapshot) => boolean): void {
  const keys: string[] = [];
  for (const [key, s] of snapshots.entries()) if (test(s)) keys.push(key);
  for (const key of keys) snapshots.delete(key);
}

/** Empties the cache (tests). */
export function clearSiteSnapshots(): void {
  generation++;
  snapshots.clear();
  unsettledSites.clear();
  unsettledSpaces.clear();
}

/** The sites whose change an event of this service records (what a mutation of this process is writing). */
export function sitesOf(events: readonly EventEnvelope[]): string[] {
  const ids = new Set<string>();
  for (const e of events) {
    const site = (e.data as { site?: unknown } | null)?.site;
    if (e.type.startsWith('site.') && typeof site === 'string') ids.add(site);
  }
  return [...ids];
}

const SITE_EVENTS = [Events.siteUpdated, Events.sitePublished, Events.siteUnpublished, Events.siteDeleted];
const SPACE_EVENTS = [
  Events.spaceUpdated,
  Events.spaceDeleted,
  Events.spaceRestored,
  Events.spaceTransferred,
  Events.spacePurged,
];

/**
 * Every process's own eviction: site events evict the site, space events the sites showing the space and the
 * space's live revision (as `space.content-updated` does).
 */
export function sitesCacheListener(): LiveListenerSpec {
  const siteTypes = new Set<string>(SITE_EVENTS.map((e) => e.type));
  const spaceTypes = new Set<string>(SPACE_EVENTS.map((e) => e.type));
  return {
    subjects: [...SITE_EVENTS, ...SPACE_EVENTS, Events.spaceContentUpdated].map((e) => e.subject),
    handler: async (envelope) => {
      const data = envelope.data as { site?: unknown; space?: unknown } | null;
      if (siteTypes.has(envelope.type) && typeof data?.site === 'string') evictSite(data.site);
      if (typeof data?.space !== 'string') return;
      if (spaceTypes.has(envelope.type)) evictSpaceSites(data.space);
      if (envelope.type === Events.spaceContentUpdated.type || spaceTypes.has(envelope.type)) evictSpace(data.space);
    },
  };
}
