import { createHash } from 'node:crypto';
import type { RevisionFile } from '@quire/contracts';
import { conditionHolds, type ConditionContext, type ConditionLogger, type PublicUrls } from '@quire/kit';
import { instanceSiteUrl } from '../sites/site.presenter.ts';
import { servedHostname, type ISite } from '../sites/site.entity.ts';
import type { SiteTree, TreeSpace } from '../structure/site-tree.ts';
import type { Audience } from './audience.ts';
import { liveRevision, type PublishedRevision } from './content-source.ts';
import { buildPageTree, type PageTree, type SitePage } from './page-tree.ts';
import { effectiveCustomization, setCustomization, withOverrides } from '../customization/customization.ts';
import type { NavItem } from '../structure/site-tree.ts';
import type { NavLink, SectionTab } from './render/layout.ts';
import {
  emojiText,
  hexPair,
  refHref,
  SOCIAL_LABELS,
  socialHref,
  type Announcement,
  type SocialLink,
  type HeaderItem,
  type LookLink,
  type SiteLook,
  type ThemedImage,
} from './render/look.ts';
import { colourScheme } from './render/theme.ts';
import { safeUrl } from '@quire/document/render';
import { pageHref } from './render/navigation.ts';
import {
  FONT_SHEET_SEGMENT,
  fontSheet,
  MONOSPACE_FONTS,
  TEXT_FONTS,
  type BundledFont,
  type LookFont,
  type LookFonts,
} from './render/fonts.ts';
import { FONT_BASE } from './render/look.ts';
import { FONT_FILE_PATH } from '../fonts/font-file.ts';
import { siteSpaceBasePath, visibleSections, visibleSpaces, type StructureMatch } from './resolve-url.ts';
import type { ServiceClients } from '@quire/kit';

/** One site space as a visitor sees it: its live revision and the pages the visitor may reach. */
export interface SpaceView {
  siteSpace: TreeSpace;
  basePath: string;
  revision: PublishedRevision;
  pages: PageTree;
  files: Map<string, RevisionFile>;
}

/** The published site around one request. */
export interface SiteView {
  site: ISite;
  tree: SiteTree;
  /** The site's base path for links (`/sites/docs`, `` on its hostname, the proxy's path behind its proxy). */
  siteBasePath: string;
  /** The site's absolute root URL (canonical links, sitemap). */
  siteUrl: string;
  audience: Audience;
  log: ConditionLogger;
  peers: ServiceClients;
  requestId: string;
  urls: PublicUrls;
  /** The request came through the site's proxy (its subdirectory on another host). */
  proxied: boolean;
}

export const visitorOf = (v: SiteView): ConditionContext => v.audience.visitor;

/** The absolute root of a site: its custom hostname when it has one, else its instance URL. */
export const siteUrlOf = (urls: PublicUrls, site: ISite) =>
  servedHostname(site) ? `https://${servedHostname(site)}` : instanceSiteUrl(urls, site);

/** The title of a site space (its space's title as projected). */
export const siteSpaceTitle = (t: TreeSpace) => t.projectedTitle ?? t.entity.path;

export async function spaceView(v: SiteView, siteSpace: TreeSpace): Promise<SpaceView> {
  const revision = await liveRevision({ peers: v.peers, requestId: v.requestId }, siteSpace.entity.spaceId);
  return {
    siteSpace,
    basePath: siteSpaceBasePath(v.tree, v.siteBasePath, siteSpace),
    revision,
    ...pagesAndFiles(v, revision),
  };
}

/**
 * The page tree and files of a live revision as a visitor sees them, built once per revision and audience
 * (claims, and whether file links stay absolute): a cached revision object is the same until evicted, so
 * the entries go with it. At most `AUDIENCES_PER_REVISION` audiences are kept for one revision.
 */
const AUDIENCES_PER_REVISION = 64;
const built = new WeakMap<PublishedRevision, Map<string, Pick<SpaceView, 'pages' | 'files'>>>();

function pagesAndFiles(v: SiteView, revision: PublishedRevision): Pick<SpaceView, 'pages' | 'files'> {
  let byAudience = built.get(revision);
  if (!byAudience) built.set(revision, (byAudience = new Map()));
  const key = `${v.audience.claimsHash}|${v.proxied}|${v.urls.base}`;
  let hit = byAudience.get(key);
  if (!hit) {
    if (byAudience.size >= AUDIENCES_PER_REVISION) byAudience.clear();
    hit = {
      pages: buildPageTree(revision.pages, visitorOf(v), v.log),
      files: new Map(revision.files.map((f) => [f.id, { ...f, downloadURL: localUrl(v, f.downloadURL) }])),
    };
    byAudience.set(key, hit);
  }
  return hit;
}

/**
 * A URL of the instance as a path (`/v1/downloads/…`) when the site is served by this gateway on the same
 * origin (its instance path or its custom hostname): the page then loads nothing from another origin. Behind
 * a proxy (whose paths are the site's) the absolute URL is kept.
 */
export function localUrl(v: SiteView, url: string): string {
  const base = v.urls.base;
  if (v.proxied || !url.startsWith(`${base}/`)) return url;
  return url.slice(base.length);
}

/** Every site space the visitor sees (in sections, or at the root), in order. */
export function visibleSiteSpaces(v: SiteView): TreeSpace[] {
  if (v.tree.kind === 'sections')
    return visibleSections(v.tree, visitorOf(v), v.log).flatMap((s) =>
      visibleSpaces(v.tree, s.id, visitorOf(v), v.log),
    );
  return visibleSpaces(v.tree, null, visitorOf(v), v.log);
}

/**
 * The section tabs: each visible section, linking to its default (or first visible) site space, in navigation
 * order; a section group is a tab of its visible sections (a group showing none is left out).
 */
export function sectionLinks(v: SiteView, match: StructureMatch): SectionTab[] {
  const visible = new Set(visibleSections(v.tree, visitorOf(v), v.log).map((s) => s.id));
  const tabs = (level: string | null, seen: Set<string>): SectionTab[] =>
    v.tree.navItems(level).flatMap((item: NavItem): SectionTab[] => {
      if (item.type === 'site-section') {
        const s = item.entity;
        if (!visible.has(s.id)) return [];
        const spaces = visibleSpaces(v.tree, s.id, visitorOf(v), v.log);
        const target = spaces.find((t) => t.entity.id === v.tree.effectiveDefault(s.id)?.entity.id) ?? spaces[0]!;
        const href = siteSpaceBasePath(v.tree, v.siteBasePath, target) || '/';
        return [{ title: s.title, icon: s.icon, href, current: s.id === match.section?.id }];
      }
      if (seen.has(item.entity.id)) return [];
      const items = tabs(item.entity.id, new Set([...seen, item.entity.id]));
      if (!items.length) return [];
      const current = v.tree.sectionsUnder(item.entity.id).some((s) => s.id === match.section?.id);
      return [{ group: true, title: item.entity.title, icon: item.entity.icon, current, items }];
    });
  return tabs(null, new Set());
}

/** The customization a site space's pages show: the site's, with the site space's overrides. */
export const customizationFor = (v: SiteView, siteSpace: TreeSpace | null) =>
  withOverrides(effectiveCustomization(v.site.customization ?? null), siteSpace?.entity.customization ?? null);

/** The title the site's pages show: the customization's, else the site's. */
export const siteTitleFor = (v: SiteView, siteSpace: TreeSpace | null) =>
  customizationFor(v, siteSpace).title ?? v.site.title;

/**
 * An image URL of the customization when a page may load it: http(s) on the instance's origin (or the site's own
 * host), which the pages' `img-src` allows, as a path when the site is served on that origin; null otherwise (other
 * schemes, other hosts).
 */
export function imageUrl(v: SiteView, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const own = [new URL(v.urls.base).origin, servedHostname(v.site) ? `https://${servedHostname(v.site)}` : null];
  if (!own.includes(parsed.origin)) return null;
  return localUrl(v, parsed.href);
}

const lookLinks = (links: { title: string; to: { kind?: string; url?: string } }[]): LookLink[] =>
  links.flatMap((l) => {
    const href = refHref(l.to);
    return href ? [{ title: l.title, href }] : [];
  });

/**
 * The announcement a site space's pages show, when enabled: its link only when a URL `safeUrl` lets through. Its
 * key (a hash of the site and what it says) changes with the announcement, so a new one shows again once dismissed.
 */
function announcementOf(v: SiteView, c: ReturnType<typeof customizationFor>): Announcement | null {
  const a = c.announcement;
  if (!a?.enabled || !a.message.trim()) return null;
  const href = a.link ? refHref(a.link.to) : null;
  const link = a.link && href ? { title: a.link.title, href } : null;
  const key = createHash('sha256')
    .update(JSON.stringify([v.site.id, a.message, a.style, link]))
    .digest('hex');
  return { message: a.message, style: a.style, link, key: key.slice(0, 16) };
}

/** The hints' colours the site or the site space set (`styling.infoColor`…), each a checked hex pair. */
function hintColours(styling: object | undefined): SiteLook['hints'] {
  const out: SiteLook['hints'] = {};
  const colours = (styling ?? {}) as Record<string, Parameters<typeof hexPair>[0]>;
  for (const kind of ['info', 'success', 'warning', 'danger'] as const) {
    const pair = hexPair(colours[`${kind}Color`]);
    if (pair) out[kind] = pair;
  }
  return out;
}

/** What a site space's pages show of the customization, every value checked (see `SiteLook`). */
export function lookFor(v: SiteView, siteSpace: TreeSpace | null): SiteLook {
  const c = customizationFor(v, siteSpace);
  const fav = c.favicon as { emoji?: string; icon?: { light: string; dark: string } };
  const emoji = fav.emoji ? emojiText(fav.emoji) : null;
  const light = fav.icon ? imageUrl(v, fav.icon.light) : null;
  const dark = fav.icon ? (imageUrl(v, fav.icon.dark) ?? light) : null;
  const headerLinks = c.header.links
    .filter((item) => !item.condition || conditionHolds(item.condition, visitorOf(v), v.log))
    .flatMap((item): HeaderItem[] => {
      if (item.links.length) {
        const links = lookLinks(item.links);
        return links.length ? [{ kind: 'menu', title: item.title, links }] : [];
      }
      const href = refHref(item.to);
      return href ? [{ kind: 'link', title: item.title, href, style: item.style ?? 'link' }] : [];
    });
  // Colours only when set: the pages' own colours (checked for contrast, light and dark) stand for the defaults.
  const set = setCustomization(v.site.customization ?? null, siteSpace?.entity.customization ?? null);
  const fonts = fontsOf(v, c.styling);
  const sheet = fontSheet(fonts, FONT_BASE);
  return {
    icon: emoji ? { emoji } : light && dark ? { light, dark } : null,
    primary: hexPair(set.styling?.primaryColor),
    tint: hexPair(set.styling?.tint?.color),
    hints: hintColours(set.styling),
    headerLinks,
    footer: {
      groups: c.footer.groups.map((g) => ({ title: g.title, links: lookLinks(g.links) })).filter((g) => g.links.length),
      copyright: c.footer.copyright ?? null,
      trademark: c.trademark.enabled,
    },
    announcement: announcementOf(v, c),
    fonts,
    fontSheet: sheet ? `${v.siteBasePath}/${FONT_SHEET_SEGMENT}/${sheet.hash}.css` : null,
    social: socialOf(c.socialAccounts),
    logo: { header: themedImage(v, c.header.logo), footer: themedImage(v, c.footer.logo) },
    homeHref: refHref(c.header.primaryLink),
    privacyPolicy: c.privacyPolicy.url ? safeUrl(c.privacyPolicy.url) : null,
    socialPreview:
      c.socialPreview.url && /^https?:\/\//i.test(c.socialPreview.url) ? safeUrl(c.socialPreview.url) : null,
    scheme: colourScheme(c.themes),
    corners: c.styling.corners,
    pagination: c.pagination.enabled,
    feedback: c.feedback.enabled,
  };
}

/** A logo of the customization when a page may load it (`imageUrl`); its dark image, else its light one. */
function themedImage(v: SiteView, logo: { light: string; dark: string } | undefined): ThemedImage | null {
  const light = logo ? imageUrl(v, logo.light) : null;
  if (!logo || !light) return null;
  return { light, dark: imageUrl(v, logo.dark) ?? light };
}

type FontSetting =
  | string
  | { fontFamily: string; fontFaces: { weight: number; sources: { url: string; format?: 'woff2' | 'woff' }[] }[] }
  | null
  | undefined;

/**
 * A font of the customization as the pages draw it: a default font from the bundled ones; a custom font when its
 * files are on the site's own origin (the pages' `font-src` is `'self'`: a font elsewhere would not load), with the
 * faces and sources that are; null (the system fonts) otherwise.
 */
function lookFont(v: SiteView, f: FontSetting, table: Record<string, LookFont & { kind: 'bundled' }>): LookFont | null {
  if (!f) return null;
  if (typeof f === 'string') return table[f] ?? null;
  const faces = f.fontFaces.flatMap((face) => {
    const sources = face.sources.flatMap((s) => {
      const url = fontUrl(v, s.url);
      return url ? [{ url, format: s.format ?? null }] : [];
    });
    return sources.length ? [{ weight: face.weight, sources }] : [];
  });
  return faces.length ? { kind: 'custom', family: f.fontFamily, faces, fallback: 'system-ui, sans-serif' } : null;
}

/**
 * A custom font file's URL as the pages load it: a custom font's own file (`/_quire/fonts/files/…` of the instance)
 * by its path, which the gateway serves on every host (a custom hostname's pages load it from their own origin);
 * another own-origin URL as images are.
 */
function fontUrl(v: SiteView, url: string): string | null {
  const own = imageUrl(v, url);
  if (!own) return null;
  const path = new URL(url).pathname;
  return FONT_FILE_PATH.test(path) ? path : own;
}

const bundled = (t: Record<string, BundledFont>): Record<string, LookFont & { kind: 'bundled' }> =>
  Object.fromEntries(Object.entries(t).map(([k, font]) => [k, { kind: 'bundled' as const, font }]));
const TEXT = bundled(TEXT_FONTS);
const MONOSPACE = bundled(MONOSPACE_FONTS);

/** The fonts of the customization (GitBook's defaults, Inter and IBM Plex Mono, when never set); no heading font: the text's. */
function fontsOf(
  v: SiteView,
  styling: { font?: FontSetting; headingFont?: FontSetting; monospaceFont?: FontSetting } | undefined,
): LookFonts {
  return {
    text: lookFont(v, styling?.font, TEXT),
    heading: lookFont(v, styling?.headingFont, TEXT),
    mono: lookFont(v, styling?.monospaceFont, MONOSPACE),
  };
}

/** The social accounts with a usable profile URL, split by where they are shown. */
function socialOf(
  accounts: { platform: SocialLink['platform']; handle: string; display: { header: boolean; footer: boolean } }[],
): SiteLook['social'] {
  const links = accounts.flatMap((a) => {
    const href = socialHref(a.platform, a.handle);
    return href
      ? [{ link: { platform: a.platform, label: SOCIAL_LABELS[a.platform], handle: a.handle, href }, a }]
      : [];
  });
  return {
    header: links.filter((l) => l.a.display.header).map((l) => l.link),
    footer: links.filter((l) => l.a.display.footer).map((l) => l.link),
  };
}

/** The variants of the current level: its visible site spaces. */
export function variantLinks(v: SiteView, match: StructureMatch): NavLink[] {
  return visibleSpaces(v.tree, match.section?.id ?? null, visitorOf(v), v.log).map((t) => ({
    title: siteSpaceTitle(t),
    href: siteSpaceBasePath(v.tree, v.siteBasePath, t) || '/',
    current: t.entity.id === match.siteSpace.entity.id,
  }));
}

/** The absolute URL of a page (canonical, sitemap, llms.txt). */
export function absolutePageUrl(v: SiteView, s: SpaceView, page: SitePage): string {
  const path = pageHref(s.pages, s.basePath, page);
  return v.siteUrl + (path.slice(v.siteBasePath.length) || '');
}
