import type { GitSyncBlob, Revision, RevisionFile, RevisionPage } from '@quire/contracts';
import type { DownloadLinks, PublicUrls } from '@quire/kit';
import { presentReusableContents } from '../reusable-content/reusable-content.presenter.ts';
import {
  reusableContentsOf,
  treeIndex,
  type FileRecord,
  type PageRecord,
  type RevisionTree,
} from '../revisions/revision-tree.ts';
import type { ISpace } from '../spaces/space.entity.ts';

interface Ctx {
  urls: PublicUrls;
  downloads: DownloadLinks;
}

/** What a page shows beyond its record: its path, children, document. */
interface PageView {
  paths: Map<string, string>;
  children: ReadonlyMap<string | null, readonly PageRecord[]>;
  space: Pick<ISpace, 'id' | 'organizationId'>;
  /** With `format`: the document of the page presented at the top. */
  document?: { markdown: string } | { document: Record<string, unknown> };
  /** GitBook's `git` of the document pages that came from Git or went to it (Git Sync), by page id. */
  git?: ReadonlyMap<string, GitSyncBlob> | undefined;
}

/** Where a page of a space is in the application (`<public URL>/o/<organization>/s/<space>/<path>`). */
export const pageAppUrl = (urls: PublicUrls, space: Pick<ISpace, 'id' | 'organizationId'>, path: string): string =>
  urls.page(`/o/${space.organizationId}/s/${space.id}/${path}`);

/** What every presentation of a page starts with: its id, title, emoji or icon, and dates. */
export const presentPageHeading = (page: PageRecord) => ({
  id: page.id,
  title: page.title,
  ...(page.emoji ? { emoji: page.emoji } : {}),
  ...(page.icon ? { icon: page.icon } : {}),
  createdAt: page.createdAt.toISOString(),
  updatedAt: page.updatedAt.toISOString(),
});

function presentPage(ctx: Ctx, page: PageRecord, view: PageView, top: boolean): RevisionPage {
  const base = presentPageHeading(page);
  if (page.kind === 'link') {
    return {
      ...base,
      kind: 'link',
      type: 'link',
      target: { kind: 'url', url: page.href ?? '' },
      ...(page.href ? { href: page.href } : {}),
      hidden: page.hidden,
    };
  }
  const pages = (view.children.get(page.id) ?? []).map((child) => presentPage(ctx, child, view, false));
  const path = view.paths.get(page.id) ?? page.slug;
  if (page.kind === 'group') {
    return {
      ...base,
      kind: 'group',
      type: 'group',
      slug: page.slug,
      path,
      pages,
      hidden: page.hidden,
      noIndex: page.noIndex,
      noRobotsIndex: page.noRobotsIndex,
    };
  }
  return {
    ...base,
    kind: 'sheet',
    type: 'document',
    urls: { app: pageAppUrl(ctx.urls, view.space, path) },
    slug: page.slug,
    path,
    ...(page.description ? { description: page.description } : {}),
    ...(page.documentHash ? { documentId: page.documentHash } : {}),
    pages,
    layout: page.layout ?? {},
    ...(page.cover ? { cover: page.cover } : {}),
    hidden: page.hidden,
    noIndex: page.noIndex,
    noRobotsIndex: page.noRobotsIndex,
    tags: [],
    ...(view.git?.has(page.id) ? { git: view.git.get(page.id)! } : {}),
    ...(top && view.document ? view.document : {}),
  };
}

const viewOf = (tree: RevisionTree, space: Pick<ISpace, 'id' | 'organizationId'>, git?: PageView['git']): PageView => ({
  ...treeIndex(tree.pages),
  space,
  git,
});

/** The page tree, nested, in order (`git`: the pages' Git blobs, see PageView). */
export function presentPages(
  ctx: Ctx,
  tree: RevisionTree,
  space: Pick<ISpace, 'id' | 'organizationId'>,
  git?: PageView['git'],
): RevisionPage[] {
  const view = viewOf(tree, space, git);
  return (view.children.get(null) ?? []).map((p) => presentPage(ctx, p, view, false));
}

/** One page with its sub-pages, and its document when asked (`document` already converted to the asked format). */
export function presentPageAt(
  ctx: Ctx,
  tree: RevisionTree,
  space: Pick<ISpace, 'id' | 'organizationId'>,
  page: PageRecord,
  document?: PageView['document'],
  git?: PageView['git'],
): RevisionPage {
  return presentPage(ctx, page, { ...viewOf(tree, space, git), ...(document ? { document } : {}) }, true);
}

/** A file of a revision; `git`: its blob in the repository, when Git Sync read or wrote it (see `loadFileBlobs`). */
export async function presentFile(ctx: Ctx, f: FileRecord, git?: GitSyncBlob): Promise<RevisionFile> {
  return {
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: await ctx.downloads.url({ key: f.blobKey, filename: f.name, contentType: f.contentType }),
    size: f.size,
    ...(f.width !== null && f.height !== null ? { dimensions: { width: f.width, height: f.height } } : {}),
    ...(git ? { git } : {}),
  };
}

export async function presentRevision(
  ctx: Ctx,
  tree: RevisionTree,
  space: Pick<ISpace, 'id' | 'organizationId' | 'visibility'>,
  git?: Revision['git'],
  blobs?: PageView['git'],
  fileBlobs?: ReadonlyMap<string, GitSyncBlob>,
): Promise<Revision> {
  const r = tree.revision;
  const published = space.visibility !== 'private' ? ctx.urls.page(`/s/${space.id}`) : undefined;
  return {
    object: 'revision',
    id: r.id,
    parents: r.parents,
    pages: presentPages(ctx, tree, space, blobs),
    files: await Promise.all(
      [...tree.files.values()]
        .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
        .map((f) => presentFile(ctx, f, fileBlobs?.get(f.id))),
    ),
    reusableContents: presentReusableContents(reusableContentsOf(tree), blobs),
    variables: {},
    createdAt: r.createdAt.toISOString(),
    type: r.type,
    urls: {
      app: ctx.urls.page(`/o/${space.organizationId}/s/${space.id}/~/revisions/${r.id}`),
      ...(published ? { published } : {}),
      ...(published && space.visibility === 'public' ? { public: published } : {}),
    },
    ...(git ? { git } : {}),
  };
}

/** GitBook's JSONDocument of a document page read with `format: 'document'` (the bare document `…/page/{p}/document` answers). */
export function presentDocument(read: { document: Record<string, unknown> } | { markdown: string } | undefined) {
  // pageDocument answers `{document}` for a document page read as `document`: anything else is a bug, not an input.
  if (!read || !('document' in read)) throw new Error('presentDocument: the page was not read as a document');
  return read.document as { object: 'document'; data: Record<string, unknown>; nodes: Record<string, unknown>[] };
}
