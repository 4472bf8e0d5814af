import { LRUCache } from 'lru-cache';
import { ops, type OperationOutput } from '@quire/contracts';
import type { ServiceClients } from '@quire/kit';

export type PublishedRevision = OperationOutput<typeof ops.getPublishedRevision>;

interface Ctx {
  peers: ServiceClients;
  requestId: string;
}

/**
 * What the published site reads from the content service (as a service: only the spaces of published sites
 * are ever asked for). A space's live revision is cached until `space.content-updated` (or the space's
 * deletion) evicts it in every process (site-cache.ts's live listener, and the durable consumer of
 * cache-events.consumer.ts) — and at most `REVISION_TTL_MS`, so a process the event did not reach catches up, and
 * the signed file links it holds stay far from expiry. Documents are cached by revision (immutable).
 */
export const REVISION_TTL_MS = 60_000;

const revisions = new LRUCache<string, PublishedRevision>({ max: 2_000, ttl: REVISION_TTL_MS });
const documents = new LRUCache<string, Record<string, unknown>>({
  max: 5_000,
  maxSize: 200_000_000,
  sizeCalculation: (d) => Math.max(1, JSON.stringify(d).length),
});
const markdowns = new LRUCache<string, string>({
  max: 5_000,
  maxSize: 100_000_000,
  sizeCalculation: (m) => Math.max(1, m.length),
});
const pending = new Map<string, Promise<PublishedRevision>>();
/** Bumped by every eviction: a revision fetched across one is answered, not cached (it may predate the change). */
let generation = 0;

export async function liveRevision(ctx: Ctx, spaceId: string): Promise<PublishedRevision> {
  const hit = revisions.get(spaceId);
  if (hit) return hit;
  let wait = pending.get(spaceId);
  if (!wait) {
    const started = generation;
    const fetched = ctx.peers.asService(ops.getPublishedRevision, { spaceId }, ctx.requestId).then((r) => {
      if (started === generation) revisions.set(spaceId, r);
      return r;
    });
    wait = fetched.finally(() => {
      if (pending.get(spaceId) === wait) pending.delete(spaceId);
    });
    pending.set(spaceId, wait);
  }
  return wait;
}

const docKey = (spaceId: string, revisionId: string, pageId: string) => `${spaceId}/${revisionId}/${pageId}`;

/** JSON documents of pages of a revision (those missing are fetched in one call). */
export async function pageDocuments(
  ctx: Ctx,
  spaceId: string,
  revisionId: string,
  pageIds: string[],
): Promise<Map<string, Record<string, unknown>>> {
  return cachedFetch(ctx, documents, 'document', spaceId, revisionId, pageIds, (i) => i.document);
}

/** Markdown of pages of a revision. */
export async function pageMarkdowns(
  ctx: Ctx,
  spaceId: string,
  revisionId: string,
  pageIds: string[],
): Promise<Map<string, string>> {
  return cachedFetch(ctx, markdowns, 'markdown', spaceId, revisionId, pageIds, (i) => i.markdown);
}

type Item = OperationOutput<typeof ops.listPublishedPageDocuments>['items'][number];

async function cachedFetch<T extends {}>(
  ctx: Ctx,
  cache: LRUCache<string, T>,
  format: 'document' | 'markdown',
  spaceId: string,
  revisionId: string,
  pageIds: string[],
  pick: (i: Item) => T | undefined,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  const missing: string[] = [];
  for (const id of new Set(pageIds)) {
    const hit = cache.get(docKey(spaceId, revisionId, id));
    if (hit !== undefined) out.set(id, hit);
    else missing.push(id);
  }
  for (let i = 0; i < missing.length; i += 1000) {
    const { items } = await ctx.peers.asService(
      ops.listPublishedPageDocuments,
      { spaceId, revisionId, pageIds: missing.slice(i, i + 1000), format },
      ctx.requestId,
    );
    for (const item of items) {
      const value = pick(item);
      if (value === undefined) continue;
      cache.set(docKey(spaceId, revisionId, item.id), value);
      out.set(item.id, value);
    }
  }
  return out;
}

/** Forgets the live revision of a space (its content changed, it was deleted, restored or moved). */
export function evictSpace(spaceId: string): void {
  generation++;
  revisions.delete(spaceId);
  pending.delete(spaceId);
}
