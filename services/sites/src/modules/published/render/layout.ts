import { html, raw, type Html } from '@quire/document/render';
import { iconHtml } from './icons.ts';
import {
  lookAnnouncement,
  lookFooter,
  lookHead,
  lookHeaderLinks,
  lookSiteTitle,
  lookSocial,
  lookStyle,
  PLAIN_LOOK,
  type SiteLook,
} from './look.ts';
import { forceScheme } from './theme.ts';

/** Where the gateway serves the published sites' own files (same origin as every page of every site). */
export const ASSET_BASE = '/_quire/site';
export const SITE_ASSETS = {
  css: `${ASSET_BASE}/site-v1.css`,
  js: `${ASSET_BASE}/site-v1.js`,
  katex: `${ASSET_BASE}/katex/katex.min.css`,
};

export interface NavLink {
  title: string;
  href: string;
  current: boolean;
  /** A section's Font Awesome icon name (GitBook's `SiteSection.icon`), drawn before its title. */
  icon?: string | null | undefined;
}

/** A section group in the section tabs: a menu of its sections (and of the groups in it), current when one is. */
export interface SectionGroupTab {
  group: true;
  title: string;
  icon?: string | null | undefined;
  current: boolean;
  items: SectionTab[];
}
export type SectionTab = NavLink | SectionGroupTab;

const isGroup = (t: SectionTab): t is SectionGroupTab => 'group' in t;
const countSections = (tabs: SectionTab[]): number =>
  tabs.reduce((n, t) => n + (isGroup(t) ? countSections(t.items) : 1), 0);

/** Everything around a page's content: the site's header, navigation and metadata. */
export interface Shell {
  siteTitle: string;
  /** The site's root URL path (`/sites/docs`, or `` on a custom hostname): the title links there. */
  siteHome: string;
  /** The document's `<title>`. */
  title: string;
  description?: string | undefined;
  /** Absolute canonical URL of the page. */
  canonical?: string | undefined;
  index: boolean;
  sections: SectionTab[];
  /** The site's customization as the page shows it (its icon, colours, header links, footer). */
  look?: SiteLook | undefined;
  variants: NavLink[];
  sidebar: Html;
  main: Html;
  outline: Html;
  /** Where the search box sends its query (`GET ?q=`). */
  searchAction: string;
  /** The search box is there but hidden (a page outside any site, such as the error page of an unknown host). */
  searchHidden?: boolean;
  query?: string | undefined;
  /** Load KaTeX's stylesheet (the page has math). */
  math: boolean;
}

const tabLink = (l: NavLink) =>
  html`<li><a href="${l.href}"${l.current ? html` aria-current="page"` : html``}>${iconHtml(l.icon, 'page-icon')}${l.title}</a></li>`;

/** The items of a group's menu: its sections, and each group in it as a labelled list. */
const groupItems = (items: SectionTab[]): Html =>
  html`${items.map((t) =>
    isGroup(t)
      ? html`<li class="subgroup"><span class="subgroup-title">${t.title}</span><ul>${groupItems(t.items)}</ul></li>`
      : tabLink(t),
  )}`;

/**
 * The section tabs: a section is a link, a section group a `<details>` menu of its sections (it opens and closes
 * without JavaScript, by mouse or keyboard: its `<summary>` is a button).
 */
function sectionTabs(tabs: SectionTab[]): Html {
  if (countSections(tabs) < 2) return html``;
  return html`<nav class="sections" aria-label="Sections"><ul>${tabs.map((t) =>
    isGroup(t)
      ? html`<li class="${t.current ? 'section-group current' : 'section-group'}"><details><summary>${iconHtml(t.icon, 'page-icon')}${t.title}${
          t.current ? html`<span class="sr-only"> (current)</span>` : html``
        }</summary><ul class="group-menu">${groupItems(t.items)}</ul></details></li>`
      : tabLink(t),
  )}</ul></nav>`;
}

function variantSwitcher(links: NavLink[]): Html {
  if (links.length < 2) return html``;
  const current = links.find((l) => l.current) ?? links[0]!;
  const summary = html`<summary><span class="sr-only">Variant: </span>${current.title}</summary>`;
  return html`<details class="variants">${summary}<ul>${links.map(
    (l) => html`<li><a href="${l.href}"${l.current ? html` aria-current="true"` : html``}>${l.title}</a></li>`,
  )}</ul></details>`;
}

/** A whole HTML document of a published site. */
export function renderShell(s: Shell): Html {
  const meta = [
    s.description ? html`<meta name="description" content="${s.description}">` : html``,
    s.canonical ? html`<link rel="canonical" href="${s.canonical}">` : html``,
    s.index ? html`` : html`<meta name="robots" content="noindex, nofollow">`,
    html`<meta property="og:type" content="website"><meta property="og:site_name" content="${s.siteTitle}">`,
    html`<meta property="og:title" content="${s.title}">`,
    s.description ? html`<meta property="og:description" content="${s.description}">` : html``,
    s.canonical ? html`<meta property="og:url" content="${s.canonical}">` : html``,
    s.look?.socialPreview ? html`<meta property="og:image" content="${s.look.socialPreview}">` : html``,
    html`<meta name="twitter:card" content="${s.look?.socialPreview ? 'summary_large_image' : 'summary'}"><meta name="twitter:title" content="${s.title}">`,
    s.description ? html`<meta name="twitter:description" content="${s.description}">` : html``,
  ];
  const look = s.look ?? PLAIN_LOOK;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${s.title}</title>
${meta}
${lookHead(look)}
<link rel="stylesheet" href="${SITE_ASSETS.css}">
${lookStyle(look)}
${s.math ? html`<link rel="stylesheet" href="${SITE_ASSETS.katex}">` : html``}
<script src="${SITE_ASSETS.js}" defer></script>
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
${lookAnnouncement(look.announcement)}
<header class="site-header">
<div class="header-row">
<a class="${look.logo.header ? 'site-title site-title-logo' : 'site-title'}" href="${look.homeHref ?? (s.siteHome || '/')}">${lookSiteTitle(look, s.siteTitle)}</a>
${lookHeaderLinks(look.headerLinks)}
${lookSocial(look.social.header, 'header')}
<form${s.searchHidden ? html` hidden` : html``} class="search-form" role="search" method="get" action="${s.searchAction}">
<label class="sr-only" for="site-search">Search this site</label>
<input id="site-search" type="search" name="q" value="${s.query ?? ''}" placeholder="Search…" maxlength="200">
<button type="submit">Search</button>
</form>
</div>
${sectionTabs(s.sections)}
</header>
<input class="nav-toggle" type="checkbox" id="nav-toggle"><label class="nav-toggle-label" for="nav-toggle">Menu</label>
<div class="layout">
<aside class="sidebar">${variantSwitcher(s.variants)}${s.sidebar}</aside>
<main id="content" tabindex="-1">${s.main}</main>
<aside class="outline">${s.outline}</aside>
</div>
${lookFooter(look, s.siteTitle)}
</body>
</html>
`;
  return look.scheme === 'system' ? page : raw(forceScheme(page.value, look.scheme));
}
