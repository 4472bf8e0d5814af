import type { ContentContext } from '../../trpc.ts';
import type { LoadedRevision } from '../content/content.loader.ts';
import { changeRequestRepository } from '../change-requests/change-request.repository.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { treeIndex, type PageRecord, type RevisionTree } from '../revisions/revision-tree.ts';
import {
  classifyTarget,
  extractCached,
  targetKey,
  type ExtractedDocument,
  type LinkTarget,
  type Status,
} from './link-extraction.ts';

type Ctx = Pick<ContentContext, 'em' | 'urls'>;

/** A link of a revision: one per distinct target, with the pages it is written in (tree order). */
export interface ResolvedLink {
  key: string;
  /** Same-page anchors are made absolute: `{ kind: 'page', page: <source>, anchor }`. */
  target: Exclude<LinkTarget, { kind: 'anchor' }>;
  status: Status;
  pages: string[];
}

/** The pages of the tree that have a document, in reading order (depth first, siblings in order). */
export function pagesInTreeOrder(tree: RevisionTree): PageRecord[] {
  const { children } = treeIndex(tree.pages);
  const out: PageRecord[] = [];
  const visit = (parent: string | null) => {
    for (const page of children.get(parent) ?? []) {
      if (page.documentHash) out.push(page);
      visit(page.id);
    }
  };
  visit(null);
  return out;
}

/** The extracted links of pages, by page id (documents read through the repository's cache). */
async function extractionsOf(ctx: Ctx, pages: readonly PageRecord[]): Promise<Map<string, ExtractedDocument>> {
  const markdown = await documentRepository.getMany(
    ctx.em,
    pages.map((p) => p.documentHash!),
  );
  const out = new Map<string, ExtractedDocument>();
  for (const page of pages) {
    const text = markdown.get(page.documentHash!);
    if (text !== undefined) out.set(page.id, extractCached(page.documentHash!, text));
  }
  return out;
}

/**
 * A target as the revision resolves it: a page or heading of the space itself without its space, one of another
 * space undefined (the revision cannot tell whether it exists: it is not listed).
 */
export function ownSpace(target: LinkTarget, spaceId: string): LinkTarget | undefined {
  if (target.kind !== 'page' || target.space === undefined) return target;
  if (target.space !== spaceId) return undefined;
  const { space: _, ...own } = target;
  return own;
}

/** The links of `sources` (pages of the revision), resolved against the whole revision, in reading order. */
export async function resolveLinks(
  ctx: Ctx,
  { tree, space }: LoadedRevision,
  sources: readonly PageRecord[],
): Promise<ResolvedLink[]> {
  const extracted = await extractionsOf(
    ctx,
    sources.filter((p) => p.documentHash),
  );
  // Anchors of other pages are needed only for the pages links point at with an anchor.
  const wanted = new Set<string>();
  for (const doc of extracted.values())
    for (const t of doc.targets)
      if (t.kind === 'page' && t.anchor !== undefined && (t.space ?? space.id) === space.id && !extracted.has(t.page))
        wanted.add(t.page);
  const others = [...wanted].flatMap((id) => {
    const page = tree.pages.get(id);
    return page?.documentHash ? [page] : [];
  });
  for (const [id, doc] of await extractionsOf(ctx, others)) extracted.set(id, doc);

  const resolution = {
    spaceId: space.id,
    base: ctx.urls.base,
    hasPage: (id: string) => tree.pages.has(id),
    hasFile: (id: string) => tree.files.has(id),
    anchorsOf: (id: string) => extracted.get(id)?.anchors ?? (tree.pages.has(id) ? new Set<string>() : undefined),
  };
  const links = new Map<string, ResolvedLink>();
  for (const source of sources) {
    for (const written of extracted.get(source.id)?.targets ?? []) {
      const raw = ownSpace(written, space.id);
      if (!raw) continue;
      const target = raw.kind === 'anchor' ? { kind: 'page' as const, page: source.id, anchor: raw.anchor } : raw;
      const key = targetKey(target);
      const known = links.get(key);
      if (known) {
        if (!known.pages.includes(source.id)) known.pages.push(source.id);
        continue;
      }
      links.set(key, { key, target, status: classifyTarget(target, source.id, resolution), pages: [source.id] });
    }
  }
  return [...links.values()];
}

/** The pages of the revision that reference a file of the space, in reading order. */
export async function pagesReferencingFile(
  ctx: Ctx,
  { tree, space }: LoadedRevision,
  fileId: string,
): Promise<PageRecord[]> {
  const pages = pagesInTreeOrder(tree);
  const extracted = await extractionsOf(ctx, pages);
  return pages.filter((page) =>
    (extracted.get(page.id)?.targets ?? []).some(
      (t) => t.kind === 'file' && t.file === fileId && (t.space === undefined || t.space === space.id),
    ),
  );
}

/**
 * `stats.broken.changeRequest`: the broken links of the space's open change requests (each change request's
 * revision resolved on its own, summed), over the whole content or over one page (`pageId`).
 */
export async function brokenInOpenChangeRequests(
  ctx: Ctx,
  { space }: Pick<LoadedRevision, 'space'>,
  pageId?: string,
): Promise<number> {
  let broken = 0;
  for (const revisionId of await changeRequestRepository.openRevisionIds(ctx.em, space.id)) {
    const tree = await revisionRepository.treeInSpace(ctx.em, space.id, revisionId);
    const page = pageId === undefined ? undefined : tree.pages.get(pageId);
    const sources = pageId === undefined ? pagesInTreeOrder(tree) : page ? [page] : [];
    broken += (await resolveLinks(ctx, { space, tree, changeRequest: undefined }, sources)).filter(
      (l) => l.status === 'broken',
    ).length;
  }
  return broken;
}
