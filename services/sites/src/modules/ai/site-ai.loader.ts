import type { OperationInput, ops } from '@quire/contracts';
import { DomainError } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { passagesFor } from '../answers/site-answers.ts';

/**
 * The site whose AI answers are asked for, when the caller may read it (404 otherwise, as any read of the site).
 * Quire has no AI agent conversations: always a 404 saying so (`streamAskInSite` answers questions).
 */
export async function loadSiteAI(
  ctx: Pick<SitesContext, 'em' | 'actor'>,
  input: { organizationId: string; siteId: string },
): Promise<never> {
  await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
  throw new DomainError(
    'not_found',
    'AI agent conversations are not available on this site: Quire has none (streamAskInSite answers questions)',
  );
}

/**
 * The passages of the site that may answer a question, as the caller sees the site (404 when it may not read the
 * site, as any read of it).
 */
export const loadAnswerPassages = (ctx: SitesContext, input: OperationInput<typeof ops.streamAskInSite>) =>
  passagesFor(ctx, input);
