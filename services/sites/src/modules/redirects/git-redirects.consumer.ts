import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { gitRedirectsWriter } from '../../commands/git-redirects-writer.ts';

export const GIT_REDIRECTS_CONSUMER = 'sites-git-redirects';

/**
 * `.gitbook.yaml` redirects become the site's redirects: a Git import records the space's redirects
 * (`space.git-redirects-updated`), and every site showing the space gets them (`git-redirects-writer.ts`).
 * Ordered (one subscription over `content.space.*`), so a space's imports apply in the order they happened.
 */
export const gitRedirectsConsumer = defineConsumer(
  GIT_REDIRECTS_CONSUMER,
  [Events.spaceGitRedirectsUpdated],
  {
    'space.git-redirects-updated': async (e, em) => {
      await gitRedirectsWriter(em, { spaceId: e.data.space, redirects: e.data.redirects });
    },
  },
  { ordered: true },
);
