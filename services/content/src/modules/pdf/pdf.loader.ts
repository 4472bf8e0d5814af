import { invalid, notFound, type EntityManager } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { changeRequestRepository } from '../change-requests/change-request.repository.ts';
import { loadRevisionFor, type LoadedRevision, type RevisionSelector } from '../content/content.loader.ts';
import { pageById } from '../content/content.loader.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import type { PageRecord } from '../revisions/revision-tree.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import type { IPdfExport, PdfExportKey } from './pdf-export.entity.ts';
import { selectPdfPages, type PdfSelectedPage } from './pdf-selection.ts';

/** What a PDF export renders: a revision (the space's or a change request's), the page it starts from, the pages it shows. */
export interface PdfRequest extends LoadedRevision {
  key: PdfExportKey;
  root: PageRecord | undefined;
  pages: PdfSelectedPage[];
}

function requestOf(loaded: LoadedRevision, root: PageRecord | undefined, only: boolean): PdfRequest {
  const key: PdfExportKey = {
    spaceId: loaded.space.id,
    revisionId: loaded.tree.revision.id,
    changeRequestId: loaded.changeRequest?.id ?? '',
    pageId: root?.id ?? '',
    onlyPage: only && root !== undefined,
  };
  return { ...loaded, key, root, pages: selectPdfPages(loaded.tree, root, key.onlyPage) };
}

/**
 * The PDF export the caller asks for (the space's `export`, a `read`): the content of the space or of a
 * change request, from `page` when given (404 when the revision has no such page). `only` needs `page`.
 */
export async function loadPdfRequestFor(
  ctx: Pick<ContentContext, 'em' | 'actor'>,
  input: RevisionSelector & { page?: string | undefined; only?: boolean | undefined },
): Promise<PdfRequest> {
  if (input.only && input.page === undefined)
    throw invalid('Invalid request: page: required when `only` is true (the page to export alone)');
  const loaded = await loadRevisionFor(ctx, input, 'export');
  return requestOf(
    loaded,
    input.page === undefined ? undefined : pageById(loaded.tree, input.page),
    input.only ?? false,
  );
}

/** What an export row renders, for the rendering job (no caller: the request that added it was authorized). */
export async function loadPdfRequestOf(em: EntityManager, exp: IPdfExport): Promise<PdfRequest> {
  const space = await spaceRepository.findById(em, exp.spaceId);
  if (!space) throw notFound('Space');
  const changeRequest = exp.changeRequestId
    ? await changeRequestRepository.findInSpace(em, space.id, exp.changeRequestId)
    : undefined;
  const tree = await revisionRepository.treeInSpace(em, space.id, exp.revisionId);
  return requestOf({ space, changeRequest, tree }, exp.pageId ? pageById(tree, exp.pageId) : undefined, exp.onlyPage);
}
