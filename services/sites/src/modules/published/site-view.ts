import type { RevisionFile } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { ConditionContext, ConditionLogger } from '../adaptive/condition.ts';
import { instanceSiteUrl } from '../sites/site.presenter.ts';
import type { ISite } from '../sites/site.entity.ts';
import type { SiteTree, TreeSpace } from '../structure/site-tree.ts';
import type { Audience } from './audience.ts';
import { liveRevision, type PublishedRevision } from './content-source.ts';
import { buildPageTree, type PageTree, type SitePage } from './page-tree.ts';
import type { NavLink } from './render/layout.ts';
import { pageHref } from './render/navigation.ts';
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
  site.hostname ? `https://${site.hostname}` : instanceSiteUrl(urls, site);

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

/** The section tabs: each visible section, linking to its default (or first visible) site space. */
export function sectionLinks(v: SiteView, match: StructureMatch): NavLink[] {
  return visibleSections(v.tree, visitorOf(v), v.log).map((s) => {
    const spaces = visibleSpaces(v.tree, s.id, visitorOf(v), v.log);
    const target = spaces.find((t) => t.entity.id === v.tree.effectiveDefault(s.id)?.entity.id) ?? spaces[0]!;
    return {
      title: s.title,
      href: siteSpaceBasePath(v.tree, v.siteBasePath, target) || '/',
      current: s.id === match.section?.id,
    };
  });
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
