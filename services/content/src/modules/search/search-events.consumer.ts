import type { MikroORM } from '@mikro-orm/postgresql';
import { Events } from '@quire/contracts';
import { idempotentConsumer, type DurableConsumerSpec, type EntityManager } from '@quire/kit';
import { spaceSearchIndexer } from '../../commands/search-indexer.ts';

export const SEARCH_EVENTS_CONSUMER = 'content-search-events';

/**
 * Keeps the search index of each space at its live revision, from the content service's own space events, in the
 * order they happened (one ordered consumer over `content.space.*`): a merge (`space.content-updated`) rewrites the
 * pages it changed, a new space (a duplicate has content) and a restored one are indexed. Each event brings the index
 * to the live revision, so a late or repeated one changes nothing.
 */
export function searchEventsConsumer(
  orm: MikroORM,
  config: string,
  name = SEARCH_EVENTS_CONSUMER,
): DurableConsumerSpec {
  const sync = async (spaceId: string, em: EntityManager) => void (await spaceSearchIndexer(em, { spaceId, config }));
  return idempotentConsumer(
    orm,
    name,
    [Events.spaceContentUpdated, Events.spaceCreated, Events.spaceRestored],
    {
      'space.content-updated': (e, em) => sync(e.data.space, em),
      'space.created': (e, em) => sync(e.data.space, em),
      'space.restored': (e, em) => sync(e.data.space, em),
    },
    { ordered: true },
  );
}
