import type { MikroORM } from '@mikro-orm/postgresql';
import { Events } from '@quire/contracts';
import { idempotentConsumer, type DurableConsumerSpec } from '@quire/kit';
import { gitRedirectsWriter } from '../../commands/git-redirects-writer.ts';

export const GIT_REDIRECTS_CONSUMER = 'sites-git-redirects';

/**
 * `.gitbook.yaml` redirects become the site's redirects: a Git import records the space's redirects
 * (`space.git-redirects-updated`), and every site showing the space gets them (`git-redirects-writer.ts`).
 * Ordered (one subscription over `content.space.*`), so a space's imports apply in the order they happened.
 */
export function gitRedirectsConsumer(orm: MikroORM, name = GIT_REDIRECTS_CONSUMER): DurableConsumerSpec {
  return idempotentConsumer(
    orm,
    name,
    [Events.spaceGitRedirectsUpdated] as const,
    {
      'space.git-redirects-updated': async (e, em) => {
        await gitRedirectsWriter(em, { spaceId: e.data.space, redirects: e.data.redirects });
      },
    },
    { ordered: true },
  );
}
