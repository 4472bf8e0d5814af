// The published site's renderer in the browser (loaded on demand with the Page screen, its own chunk): the page's
// document rendered by `@quire/document/render`, the very code the sites service runs, with a context built from
// what /v1 gives the app (the revision's pages and files) instead of the site's.
import type { RevisionFile } from '@quire/contracts';
import {
  documentToHtml,
  type JSONDocument,
  newRenderContext,
  type Ref,
  relativePage,
  type Target,
} from '@quire/document/render';
import { conditionHolds } from '@quire/kit/adaptive';
import 'katex/dist/katex.min.css';
import '../../../gateway/src/site-assets/site.css?article';
import type { RevisionFile as ListedFile, RevisionPages } from '../api/endpoints.ts';
import { downloadSrc } from '../editor/uploads.ts';
import { iconSrc } from '../screens/tree/page-icon.ts';

/** A page of the revision as links need it. */
interface Listed {
  id: string;
  type: string;
  path?: string;
  pages?: Listed[];
}

/** The revision's pages by id and by path (every level). */
export function pageIndex(pages: RevisionPages['pages']) {
  const byId = new Map<string, Listed>();
  const byPath = new Map<string, Listed>();
  const visit = (list: readonly Listed[]) => {
    for (const p of list) {
      byId.set(p.id, p);
      if (typeof p.path === 'string') byPath.set(p.path, p);
      visit((p.pages ?? []) as Listed[]);
    }
  };
  visit(pages as unknown as Listed[]);
  return { byId, byPath };
}

/** A relative link of the markdown (`../setup.md#a`) as the path of a page of the revision, or null: the site's rule. */
export function relativePath(byPath: ReadonlyMap<string, Listed>, current: string, url: string): string | null {
  const found = relativePage(byPath, current, url);
  return found ? `${found.page.path}${found.suffix}` : null;
}

export interface PageToRender {
  document: JSONDocument | undefined;
  /** The page's path in the revision. */
  path: string;
  pages: RevisionPages['pages'];
  files: ListedFile[];
  /** The app's URL of the space or change request (`/o/{org}/s/{space}[/~/changes/{n}]`): pages link under it. */
  base: string;
}

/**
 * The page's document as the published site's HTML (the inside of its `<div class="document">`), for an anonymous
 * reader of the site: links to pages go to the app's URLs of those pages, files to their download links.
 */
export async function renderPageHtml(page: PageToRender): Promise<string> {
  return (await renderPage(page)).html;
}

/** The page's document as the site's HTML (see `renderPageHtml`), and its headings as the site's outline lists them. */
export async function renderPage({ document, path, pages, files, base }: PageToRender) {
  const [, org = '', space = ''] = /^\/o\/([^/]+)\/s\/([^/]+)/.exec(base) ?? [];
  const { byId, byPath } = pageIndex(pages);
  const current = byPath.get(path);
  const hrefOfPage = (p: Listed) => `${base}/${p.path ?? ''}`;
  const resolveRef = (ref: Ref): Target | null => {
    // another space of the organization: its screen in the app
    if (ref.space && ref.space !== decodeURIComponent(space))
      return { href: `/o/${org}/s/${encodeURIComponent(ref.space)}` };
    if (ref.kind === 'space') return { href: base };
    if (ref.kind === 'page' || ref.kind === 'anchor') {
      const target = ref.page ? byId.get(ref.page) : current;
      if (!target || target.type === 'link') return null;
      const anchor = ref.kind === 'anchor' && ref.anchor ? `#${encodeURIComponent(ref.anchor)}` : '';
      const href = target === current && anchor ? anchor : hrefOfPage(target) + anchor;
      return { href, title: (target as { title?: string }).title ?? '' };
    }
    return null;
  };
  const ctx = newRenderContext({
    // the files' links are read on the app's own origin (the API's public URL may name another host)
    files: new Map(files.map((f) => [f.id, { ...f, downloadURL: downloadSrc(f.downloadURL) } as RevisionFile])),
    resolveRef,
    resolveRelative: (url) => {
      const found = relativePath(byPath, path, url);
      return found === null ? null : `${base}/${found}`;
    },
    variables: {},
    // an anonymous reader of the site: a condition reading the visitor's claims hides its block, as on the site
    conditionHolds: (expression) => conditionHolds(expression, { visitor: { claims: {} } }),
    logUnknown: () => {},
    // the site's search page: none in the app, the button shows its label
    actionHref: () => null,
    // the gateway's Font Awesome SVGs, as on the site (the Page screen takes out an icon whose SVG is not found)
    iconUrl: iconSrc,
  });
  const html = (await documentToHtml(document, ctx)).value;
  return { html, headings: ctx.headings };
}

/**
 * The rendered HTML as nodes to put in the page, with its inline styles (code colours, KaTeX's sizes, table column
 * widths, text alignment) applied through the CSSOM: the app's CSP (`style-src 'self'`) refuses `style` attributes,
 * even in a parsed document, not styles set by script. Each ` style="` of a tag is renamed before parsing (a literal
 * `"` only occurs in the renderer's markup, every value and text being escaped, and a tag only starts at a `<`
 * followed by a letter, text's `<` being `&lt;`), to a name of its own each time, which no attribute of the content
 * can take. The HTML is parsed in an inert document: nothing of it runs there.
 */
export function toNodes(html: string): DocumentFragment {
  // `getRandomValues`, not `randomUUID`: the app may be served over plain HTTP, where only the former exists
  const STYLE = `data-style-${[...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16)).join('')}`;
  const renamed = html.replace(/<[a-zA-Z][^>]*>/g, (tag) => tag.replace(/(\s)style="/g, `$1${STYLE}="`));
  const parsed = new DOMParser().parseFromString(`<body>${renamed}</body>`, 'text/html');
  const styled = [...parsed.body.querySelectorAll(`[${STYLE}]`)];
  const fragment = document.createDocumentFragment();
  for (const child of [...parsed.body.childNodes]) fragment.append(document.adoptNode(child));
  for (const el of styled) {
    (el as HTMLElement).style.cssText = el.getAttribute(STYLE) ?? '';
    el.removeAttribute(STYLE);
  }
  return fragment;
}

// the site's chrome around the page (cover, breadcrumbs, outline, previous and next, last updated): this chunk too
export { pageChrome } from './chrome.ts';
