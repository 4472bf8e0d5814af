import type { Revision, RevisionFile, RevisionPage } from '@quire/contracts';
import { notFound, type DownloadLinks, type PublicUrls } from '@quire/kit';
import { treeIndex, type FileRecord, type PageRecord, type RevisionTree } from '../revisions/revision-tree.ts';
import type { ISpace } from '../spaces/space.entity.ts';

interface Ctx {
  urls: PublicUrls;
  downloads: DownloadLinks;
}

/** What a page shows beyond its record: its path, children, document. */
interface PageView {
  paths: Map<string, string>;
  children: Map<string | null, PageRecord[]>;
  space: Pick<ISpace, 'id' | 'organizationId'>;
  /** With `format`: the document of the page presented at the top. */
  document?: { markdown: string } | { document: Record<string, unknown> };
}

/** Where a page of a space is in the application (`<public URL>/o/<organization>/s/<space>/<path>`). */
export const pageAppUrl = (urls: PublicUrls, space: Pick<ISpace, 'id' | 'organizationId'>, path: string): string => urls.page(`/o/${space.organizationId}/s/${space.id}/${path}`);

function presentPage(ctx: Ctx, page: PageRecord, view: PageView, top: boolean): RevisionPage {
  const base = {
    id: page.id,
    title: page.title,
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
  };
  if (page.kind === 'link') {
    return { ...base, kind: 'link', type: 'link', target: { kind: 'url', url: page.href ?? '' }, ...(page.href ? { href: page.href } : {}), hidden: page.hidden };
  }
  const pages = (view.children.get(page.id) ?? []).map((child) => presentPage(ctx, child, view, false));
  const path = view.paths.get(page.id) ?? page.slug;
  if (page.kind === 'group') {
    return { ...base, kind: 'group', type: 'group', slug: page.slug, path, pages, hidden: page.hidden, noIndex: page.noIndex, noRobotsIndex: page.noRobotsIndex };
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
    ...(top && view.document ? view.document : {}),
  };
}

const viewOf = (tree: RevisionTree, space: Pick<ISpace, 'id' | 'organizationId'>): PageView => ({ ...treeIndex(tree.pages), space });

/** The page tree, nested, in order. */
export function presentPages(ctx: Ctx, tree: RevisionTree, space: Pick<ISpace, 'id' | 'organizationId'>): RevisionPage[] {
  const view = viewOf(tree, space);
  return (view.children.get(null) ?? []).map((p) => presentPage(ctx, p, view, false));
}

/** One page with its sub-pages, and its document when asked (`document` already converted to the asked format). */
export function presentPageAt(ctx: Ctx, tree: RevisionTree, space: Pick<ISpace, 'id' | 'organizationId'>, page: PageRecord, document?: PageView['document']): RevisionPage {
  return presentPage(ctx, page, { ...viewOf(tree, space), ...(document ? { document } : {}) }, true);
}

export function presentFile(ctx: Ctx, f: FileRecord): RevisionFile {
  return {
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: ctx.downloads.url({ key: f.blobKey, filename: f.name, contentType: f.contentType }),
    size: f.size,
    ...(f.width !== null && f.height !== null ? { dimensions: { width: f.width, height: f.height } } : {}),
  };
}

export function presentRevision(ctx: Ctx, tree: RevisionTree, space: Pick<ISpace, 'id' | 'organizationId' | 'visibility'>): Revision {
  const r = tree.revision;
  const published = space.visibility !== 'private' ? ctx.urls.page(`/s/${space.id}`) : undefined;
  return {
    object: 'revision',
    id: r.id,
    parents: r.parents,
    pages: presentPages(ctx, tree, space),
    files: [...tree.files.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1)).map((f) => presentFile(ctx, f)),
    reusableContents: [],
    variables: {},
    createdAt: r.createdAt.toISOString(),
    type: r.type,
    urls: {
      app: ctx.urls.page(`/o/${space.organizationId}/s/${space.id}/~/revisions/${r.id}`),
      ...(published ? { published } : {}),
      ...(published && space.visibility === 'public' ? { public: published } : {}),
    },
  };
}

/** A page of the tree by id (404 when the revision has no such page). */
export function pageById(tree: RevisionTree, pageId: string): PageRecord {
  const page = tree.pages.get(pageId);
  if (!page) throw notFound('Page');
  return page;
}

/** A page of the tree by path (`guides/setup`; 404 when none). */
export function pageByPath(tree: RevisionTree, path: string): PageRecord {
  const id = treeIndex(tree.pages).byPath.get(path.replace(/^\/+|\/+$/g, ''));
  if (id === undefined) throw notFound('Page');
  return tree.pages.get(id)!;
}

/** A file of the tree by id (404 when none). */
export function fileById(tree: RevisionTree, fileId: string): FileRecord {
  const file = tree.files.get(fileId);
  if (!file) throw notFound('File');
  return file;
}
