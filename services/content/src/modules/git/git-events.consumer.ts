import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { gitSyncQueuer } from '../../commands/git-connection-writer.ts';
import { gitConnectionRepository } from './git-connection.repository.ts';
import { gitSyncRepository } from './git-sync.repository.ts';

export const GIT_EVENTS_CONSUMER = 'content-git-events';

/**
 * Continuous Git Sync's export side: every change of a connected space's live content (a merge into main) queues a
 * sync of its connection, run by the `content-git-sync` job. A change the sync itself made (an import whose revision
 * the sync recorded) queues nothing.
 */
export const gitEventsConsumer = defineConsumer(GIT_EVENTS_CONSUMER, [Events.spaceContentUpdated], {
  'space.content-updated': async (e, em) => {
    const connection = await gitConnectionRepository.findBySpace(em, e.data.space);
    if (!connection) return;
    const sync = await gitSyncRepository.findSync(em, e.data.space);
    if (sync?.last_revision === e.data.revision) return;
    await gitSyncQueuer(em, { connection, trigger: 'merge' });
  },
});
