// What the published site draws around a page (its cover, breadcrumbs, "On this page", previous and next pages and
// "Last updated"), drawn for the app's Page screen by the code the site runs (packages/document/src/render/chrome.ts
// and cover.ts), from what /v1 gives the app: the revision's pages (`GET …/pages`) and files. Part of the Page
// screen's renderer chunk (re-exported by page.ts).
import type { RevisionFile } from '@quire/contracts';
import {
  breadcrumbsHtml,
  type ChromeLink,
  coverHtml,
  coverOf,
  type OutlineHeading,
  outlineHtml,
  prevNextHtml,
  updatedHtml,
} from '@quire/document/render';
import { conditionHolds } from '@quire/kit/adaptive';
import type { RevisionFile as ListedFile, RevisionPages } from '../api/endpoints.ts';
import { downloadSrc } from '../editor/uploads.ts';

/** A page of the revision as the chrome reads it (every level of `GET …/pages`). */
interface TreePage {
  id: string;
  type: string;
  title?: string;
  path?: string;
  hidden?: boolean;
  condition?: string;
  cover?: unknown;
  updatedAt?: string;
  pages?: TreePage[];
}

/**
 * The revision's pages as the published site's page tree reads them (services/sites/src/modules/published/page-tree.ts,
 * `buildPageTree`): each page's parent, and the document pages in reading order, without what a reader of the site
 * never sees there (a hidden page and its sub-pages, a page whose condition does not hold for an anonymous reader).
 * Every page keeps its parent, so a hidden page viewed in the app still has its breadcrumbs.
 */
export function readingTree(pages: RevisionPages['pages']) {
  const parent = new Map<string, TreePage | null>();
  const byPath = new Map<string, TreePage>();
  const reading: TreePage[] = [];
  const walk = (list: readonly TreePage[], up: TreePage | null, shown: boolean, depth: number) => {
    for (const p of list) {
      parent.set(p.id, up);
      if (typeof p.path === 'string' && p.type !== 'link') byPath.set(p.path, p);
      const visible =
        shown &&
        p.hidden !== true &&
        conditionHolds(typeof p.condition === 'string' && p.condition ? p.condition : undefined, {
          visitor: { claims: {} },
        });
      if (visible && p.type === 'document') reading.push(p);
      if (Array.isArray(p.pages) && depth < 64) walk(p.pages, p, visible, depth + 1);
    }
  };
  walk(pages as unknown as TreePage[], null, true, 0);
  return { parent, byPath, reading };
}

export interface ChromeToRender {
  /** The page's path in the revision. */
  path: string;
  pages: RevisionPages['pages'];
  files: ListedFile[];
  /** The app's URL of the space or change request: pages link under it. */
  base: string;
  /** The page's headings as the renderer collected them. */
  headings: readonly OutlineHeading[];
}

/** The chrome's pieces as the site's HTML, each empty when the page has none (as on the site). */
export interface PageChrome {
  breadcrumbs: string;
  cover: string;
  updated: string;
  prevNext: string;
  outline: string;
}

/**
 * The site's chrome of the page at `path`, its links the app's URLs of the pages. The space itself is no crumb: the
 * site names it only when it shows several spaces, and the app's sidebar names it.
 */
export function pageChrome({ path, pages, files, base, headings }: ChromeToRender): PageChrome {
  const { parent, byPath, reading } = readingTree(pages);
  const current = byPath.get(path);
  const hrefOf = (p: TreePage) => `${base}/${p.path ?? ''}`;
  const crumbs: ChromeLink[] = [];
  for (let up = current ? parent.get(current.id) : null; up; up = parent.get(up.id))
    crumbs.unshift({ title: up.title ?? '', href: up.type === 'document' ? hrefOf(up) : null });
  const at = current ? reading.indexOf(current) : -1;
  const link = (p: TreePage | undefined) => (p ? { title: p.title ?? '', href: hrefOf(p) } : undefined);
  const fileMap = new Map(files.map((f) => [f.id, { ...f, downloadURL: downloadSrc(f.downloadURL) } as RevisionFile]));
  return {
    breadcrumbs: current ? breadcrumbsHtml(crumbs, current.title ?? '').value : '',
    cover: current?.type === 'document' ? coverHtml(coverOf(current.cover), fileMap).value : '',
    updated: updatedHtml(current?.updatedAt).value,
    prevNext: at >= 0 ? prevNextHtml(link(reading[at - 1]), link(reading[at + 1])).value : '',
    outline: outlineHtml(headings).value,
  };
}
