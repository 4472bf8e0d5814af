import { DomainError } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { loadRevisionFor, type RevisionSelector } from '../content/content.loader.ts';

/**
 * A reusable content of a revision the caller may read (404 when it may not, as any read of the revision). Quire
 * stores no reusable content yet, so there is none to find: always a 404 saying so.
 */
export async function loadReusableContent(
  ctx: Pick<ContentContext, 'em' | 'actor'>,
  input: RevisionSelector & { reusableContentId: string },
): Promise<never> {
  await loadRevisionFor(ctx, input);
  throw new DomainError('not_found', 'Reusable content not found: Quire stores no reusable content yet');
}
