import {
  breadcrumbsHtml,
  type ChromeLink,
  html,
  type Html,
  outlineHtml,
  prevNextHtml,
  safeUrl,
} from '@quire/document/render';
import { iconHtml } from './icons.ts';
// The breadcrumbs, outline and previous/next cards are drawn by code the app's Page screen shares
// (packages/document/src/render/chrome.ts); the sidebar is the site's own.
import { ancestorsOf, urlPathOf, type PageTree, type SitePage } from '../page-tree.ts';

/** Siblings shown in full at one level of the sidebar; past that, the first ones and those near the current page. */
const SIBLINGS_SHOWN = 60;
const AROUND_CURRENT = 10;
/** Spaces up to this many pages show every level; larger ones expand only the current page's branch. */
const EXPAND_ALL_UNDER = 300;

const joinPath = (base: string, path: string) =>
  path ? `${base}/${path.split('/').map(encodeURIComponent).join('/')}` : base || '/';

/** The URL path of a page of the site space whose root is `basePath`. */
export const pageHref = (tree: PageTree, basePath: string, page: SitePage) => joinPath(basePath, urlPathOf(tree, page));

const label = (p: SitePage) =>
  html`${p.emoji ? html`<span class="emoji" aria-hidden="true">${p.emoji} </span>` : html``}${iconHtml(p.icon, 'page-icon')}${p.title}`;

/**
 * The sidebar: the space's pages (the tree holds no hidden page), groups as headings, the current page marked. A large
 * space expands only the current page's branch, and long sibling lists show their head and the current
 * page's neighbourhood, so a page's HTML stays small whatever the size of the space.
 */
export function sidebar(tree: PageTree, basePath: string, current: SitePage | null): Html {
  const chain = new Set(current ? [...ancestorsOf(current), current].map((p) => p.id) : []);
  const expandAll = tree.byId.size <= EXPAND_ALL_UNDER;
  const level = (pages: SitePage[], depth: number): Html => {
    const shown = window(pages, chain);
    const items = shown.map((p) => {
      if (p === null) return html`<li class="more"><span>…</span></li>`;
      const open = p.children.length > 0 && (expandAll || chain.has(p.id) || (p.type === 'group' && depth === 0));
      const children = open ? level(p.children, depth + 1) : html``;
      if (p.type === 'group') return html`<li class="group"><p class="group-title">${label(p)}</p>${children}</li>`;
      if (p.type === 'link') {
        const href = p.href ? safeUrl(p.href) : null;
        return href
          ? html`<li><a class="external" href="${href}" rel="noopener nofollow">${label(p)}</a></li>`
          : html``;
      }
      const isCurrent = current?.id === p.id;
      const cls = [isCurrent ? 'current' : '', p.children.length && !open ? 'collapsed' : ''].filter(Boolean).join(' ');
      const aria = isCurrent ? html` aria-current="page"` : html``;
      return html`<li><a class="${cls}" href="${pageHref(tree, basePath, p)}"${aria}>${label(p)}</a>${children}</li>`;
    });
    return html`<ul>${items}</ul>`;
  };
  return html`<nav class="pages" aria-label="Pages">${level(tree.roots, 0)}</nav>`;
}

/** Long sibling lists: the first ones and a window around the page on the current branch, `null` for gaps. */
function window(pages: SitePage[], chain: Set<string>): (SitePage | null)[] {
  if (pages.length <= SIBLINGS_SHOWN) return pages;
  const at = pages.findIndex((p) => chain.has(p.id));
  const keep = new Set<number>();
  for (let i = 0; i < SIBLINGS_SHOWN - 2 * AROUND_CURRENT; i++) keep.add(i);
  if (at >= 0)
    for (let i = Math.max(0, at - AROUND_CURRENT); i <= Math.min(pages.length - 1, at + AROUND_CURRENT); i++)
      keep.add(i);
  const out: (SitePage | null)[] = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (i !== last + 1) out.push(null);
    out.push(pages[i]!);
    last = i;
  }
  if (last !== pages.length - 1) out.push(null);
  return out;
}

export function breadcrumbs(tree: PageTree, basePath: string, page: SitePage, spaceTitle: string | null): Html {
  const crumbs: ChromeLink[] = spaceTitle ? [{ title: spaceTitle, href: basePath || '/' }] : [];
  for (const a of ancestorsOf(page))
    crumbs.push({ title: a.title, href: a.type === 'document' ? pageHref(tree, basePath, a) : null });
  return breadcrumbsHtml(crumbs, page.title);
}

export const outline = outlineHtml;

export function prevNext(tree: PageTree, basePath: string, page: SitePage): Html {
  const i = tree.reading.findIndex((p) => p.id === page.id);
  const link = (p: SitePage | undefined) => (p ? { title: p.title, href: pageHref(tree, basePath, p) } : undefined);
  return prevNextHtml(link(i > 0 ? tree.reading[i - 1] : undefined), link(i >= 0 ? tree.reading[i + 1] : undefined));
}
