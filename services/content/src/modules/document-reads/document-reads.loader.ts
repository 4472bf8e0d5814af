import { evaluateDocument, invalid, notFound, type EvaluableNode } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { readsAsReader } from '../access/access.policy.ts';
import { loadDocumentEvaluation, loadRevisionFor } from '../content/content.loader.ts';
import { storedDocument } from '../content/document-format.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { reusableContentsOf } from '../revisions/revision-tree.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { documentReadsRepository } from './document-reads.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;
type JsonDocument = Record<string, unknown>;

/**
 * Whether the caller may read the document `documentId` (a page's `documentId` or a reusable content's `document`,
 * its content hash) of the space: a member who can read the space, when a page or reusable content of one of the
 * space's revisions has it; a reader, when a page of the live revision it sees (hidden pages left out) or one of its
 * reusable contents has it. Anything else is a 404, as if there were no such document.
 */
async function assertDocumentOfSpace(ctx: Ctx, spaceId: string, documentId: string): Promise<void> {
  if (readsAsReader(ctx.actor)) {
    const { tree } = await loadRevisionFor(ctx, { spaceId });
    for (const page of tree.pages.values()) if (page.kind === 'document' && page.documentHash === documentId) return;
    for (const content of reusableContentsOf(tree).values()) if (content.documentHash === documentId) return;
    throw notFound('Document');
  }
  const { space } = await loadSpaceFor(ctx, spaceId, 'view');
  if (await documentReadsRepository.spaceHasDocument(ctx.em, space.id, documentId)) return;
  if (!(await documentReadsRepository.spaceHasReusableDocument(ctx.em, space.id, documentId)))
    throw notFound('Document');
}

/**
 * A document of the space by id, in GitBook's JSON form, as the caller reads it: a reader's evaluated against its
 * claims (an `if` block that does not hold is gone with its content), a member's as stored.
 */
export async function loadDocumentById(
  ctx: Ctx,
  input: { spaceId: string; documentId: string },
): Promise<JsonDocument> {
  await assertDocumentOfSpace(ctx, input.spaceId, input.documentId);
  const stored = storedDocument(
    input.documentId,
    await documentRepository.get(ctx.em, input.documentId),
  ) as unknown as EvaluableNode;
  const evaluation = loadDocumentEvaluation(ctx, {});
  return (evaluation ? evaluateDocument(stored, evaluation) : stored) as unknown as JsonDocument;
}

/**
 * The source of a computed document, for those who can read the space. GitBook computes documents from an OpenAPI
 * specification (`builtin:openapi`), a translation (`builtin:translation`) or an integration
 * (`integration:{name}:{source}`); Quire computes none of them yet, so each is a 400 naming `source.type`.
 */
export async function loadComputedSource(
  ctx: Ctx,
  input: { spaceId: string; source: { type: string } },
): Promise<never> {
  await loadSpaceFor(ctx, input.spaceId, 'view');
  throw invalid(
    `Invalid request: source.type: Quire computes no documents yet (\`${input.source.type.slice(0, 100)}\` is not a source it supports)`,
  );
}
