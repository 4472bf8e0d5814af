import { evaluateDocument, notFound, type EvaluableNode, type Evaluation } from '@quire/kit';
import type { GitSyncBlob } from '@quire/contracts';
import type { ContentContext } from '../../trpc.ts';
import { gitSyncRepository } from '../git/git-sync.repository.ts';
import { loadDocumentEvaluation, loadRevisionFor, type RevisionSelector } from '../content/content.loader.ts';
import { storedDocument } from '../content/document-format.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { reusableContentsOf, type ReusableContentRecord, type RevisionTree } from '../revisions/revision-tree.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { includedIds, inlineReusableContents, MAX_INCLUDE_DEPTH } from './reusable-content-documents.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;
type JsonDocument = Record<string, unknown>;
type Dereferenced = boolean | 'reusable-contents' | undefined;

/**
 * A reusable content of a revision the caller may read (the same rule as any read of the revision: a reader, the
 * live revision only), 404 when the revision has none of this id.
 */
export async function loadReusableContent(
  ctx: Ctx,
  input: RevisionSelector & { reusableContentId: string },
): Promise<{ space: ISpace; tree: RevisionTree; record: ReusableContentRecord; git: GitSyncBlob | undefined }> {
  const { space, tree } = await loadRevisionFor(ctx, input);
  const record = reusableContentsOf(tree).get(input.reusableContentId);
  if (!record) throw notFound('Reusable content');
  // its `.gitbook/includes/` file, when the revision came from Git or went to it (kept beside the pages' files)
  const git = (await gitSyncRepository.pageBlobs(ctx.em, tree.revision.id)).get(record.id);
  return { space, tree, record, git };
}

/** The JSON document of a reusable content (an empty one when it has none), evaluated when `evaluation` is given. */
async function reusableDocument(
  ctx: Pick<Ctx, 'em'>,
  record: ReusableContentRecord,
  evaluation: Evaluation | null,
): Promise<JsonDocument> {
  const markdown = record.documentHash ? await documentRepository.get(ctx.em, record.documentHash) : '';
  const stored = storedDocument(record.documentHash ?? '', markdown) as unknown as EvaluableNode;
  return (evaluation ? evaluateDocument(stored, evaluation) : stored) as unknown as JsonDocument;
}

/**
 * The documents of the reusable contents of this space that documents include, at any depth (to
 * `MAX_INCLUDE_DEPTH`), by id; each evaluated as the including document is. Those the revision lacks are left out.
 */
export async function loadIncludedDocuments(
  ctx: Pick<Ctx, 'em'>,
  at: { spaceId: string; tree: RevisionTree; evaluation: Evaluation | null },
  documents: readonly JsonDocument[],
): Promise<Map<string, JsonDocument>> {
  const out = new Map<string, JsonDocument>();
  const records = reusableContentsOf(at.tree);
  if (!records.size) return out;
  let wanted = new Set<string>();
  for (const document of documents) includedIds(document, at.spaceId, wanted);
  for (let depth = 0; wanted.size && depth <= MAX_INCLUDE_DEPTH; depth++) {
    const next = new Set<string>();
    for (const id of wanted) {
      const record = records.get(id);
      if (!record || out.has(id)) continue;
      const document = await reusableDocument(ctx, record, at.evaluation);
      out.set(id, document);
      includedIds(document, at.spaceId, next);
    }
    wanted = next;
  }
  return out;
}

/** A document with GitBook's `dereferenced` applied: the reusable contents it includes expanded in place. */
export async function loadDereferenced(
  ctx: Pick<Ctx, 'em'>,
  at: { spaceId: string; tree: RevisionTree; evaluation: Evaluation | null; dereferenced: Dereferenced },
  document: JsonDocument,
): Promise<JsonDocument> {
  if (!at.dereferenced) return document;
  const included = await loadIncludedDocuments(ctx, at, [document]);
  return inlineReusableContents(document, at.spaceId, (id) => included.get(id));
}

/** A page's document as `pageDocument` read it, with `dereferenced` applied to its JSON document. */
export async function loadDereferencedRead<R extends { document: JsonDocument } | { markdown: string } | undefined>(
  ctx: Pick<Ctx, 'em'>,
  at: { spaceId: string; tree: RevisionTree; evaluation: Evaluation | null; dereferenced: Dereferenced },
  read: R,
): Promise<R> {
  if (!read || !('document' in read)) return read;
  return { ...read, document: await loadDereferenced(ctx, at, read.document) } as R;
}

/** The JSON document of a reusable content of a revision, evaluated as the caller reads it, `dereferenced` applied. */
export async function loadReusableContentDocument(
  ctx: Ctx,
  input: RevisionSelector & {
    reusableContentId: string;
    evaluated?: boolean | 'deterministic-only' | undefined;
    dereferenced?: Dereferenced;
  },
): Promise<JsonDocument> {
  const { space, tree, record } = await loadReusableContent(ctx, input);
  const evaluation = loadDocumentEvaluation(ctx, input);
  const document = await reusableDocument(ctx, record, evaluation);
  return loadDereferenced(ctx, { spaceId: space.id, tree, evaluation, dereferenced: input.dereferenced }, document);
}
