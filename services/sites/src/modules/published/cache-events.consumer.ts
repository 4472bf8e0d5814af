import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { evictSpace } from './content-source.ts';

export const PUBLISHED_CACHE_CONSUMER = 'sites-published-cache';

const evict = async (e: { data: { space: string } }) => evictSpace(e.data.space);

/**
 * Keeps the published sites' content fresh: a space's live revision is forgotten when its content changes
 * (a merge, an import), and when it is deleted, restored, transferred or purged. Rendered pages are keyed by
 * revision and by the site's structure, so they follow. In a deployment of several sites processes, the one
 * that takes the event evicts here; every process also evicts on its live listener (`site-cache.ts`), and
 * within the revision cache's TTL at most when that best-effort listener missed the event.
 */
export const publishedCacheConsumer = defineConsumer(
  PUBLISHED_CACHE_CONSUMER,
  [Events.spaceContentUpdated, Events.spaceDeleted, Events.spaceRestored, Events.spaceTransferred, Events.spacePurged],
  {
    'space.content-updated': evict,
    'space.deleted': evict,
    'space.restored': evict,
    'space.transferred': evict,
    'space.purged': evict,
  },
);
