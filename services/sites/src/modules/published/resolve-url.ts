import type { EntityManager } from '@quire/kit';
import { conditionHolds, type ConditionContext, type ConditionLogger } from '@quire/kit';
import { Site, type ISite } from '../sites/site.entity.ts';
import { SiteTree, type TreeSpace } from '../structure/site-tree.ts';
import { publishedSiteWhere, type SiteKey } from './site-cache.ts';
import type { ISiteSection } from '../structure/structure.entity.ts';

/**
 * Where a published URL points. A site is served at `{QUIRE_PUBLIC_URL}/sites/{basename}/…` and, when it has
 * one, on its custom `hostname` (`https://{hostname}/…`). After the site's base come the section's path (none
 * for the default section), the site space's path (none for its level's default) and the page's path: the
 * same segments `urls.published` of sections, site spaces and pages are built from (site.presenter.ts).
 */

/** Longest URL path served; longer ones are not found (never parsed). */
export const MAX_PUBLISHED_PATH = 2048;

export interface PublishedUrlRequest {
  /** The `Host` the visitor asked (may carry a port). */
  host: string;
  /** The URL's path, percent-encoded as received, without the query string. */
  path: string;
  /** The public base URL of the instance (`QUIRE_PUBLIC_URL`): `/sites/{basename}` is served on its host. */
  publicBase: string;
}

/** A published site found from a URL, and the path segments after its base. */
export interface SiteMatch {
  site: ISite;
  /** The path of the site's root as the visitor sees it: `/sites/docs`, or `` on its custom hostname. */
  siteBasePath: string;
  /** The decoded path segments after the site's base. */
  segments: string[];
}

export interface StructureMatch {
  tree: SiteTree;
  /** The section (sites with sections), else null. */
  section: ISiteSection | null;
  siteSpace: TreeSpace;
  /** The path of the site space's root: `siteBasePath` + section and site space segments. */
  basePath: string;
  /** The page path inside the site space (`guides/setup`; `` for its first page). */
  pagePath: string;
  /**
   * No further segment of a longer URL could name a section or site space (GitBook's `complete`): the URL has a
   * page path, or it named them, or there is no other one at the levels it did not name.
   */
  complete: boolean;
}

/** `foo%20bar` → `foo bar`; null when a segment is not valid percent-encoding, holds `/`, `\`, NUL or is `.`/`..`. */
export function decodeSegments(path: string): string[] | null {
  if (path.length > MAX_PUBLISHED_PATH) return null;
  const out: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    let s: string;
    try {
      s = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (s === '.' || s === '..' || /[/\\\0]/.test(s)) return null;
    out.push(s);
  }
  return out;
}

/** The host without its port, lowercase; `[::1]:8080` → `[::1]`. */
export function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/** Whether the host names a site's custom domain rather than the instance (or a bare address). */
export function isCustomHost(host: string, publicBase: string): boolean {
  const name = hostnameOf(host);
  if (!name || name === hostnameOf(new URL(publicBase).host)) return false;
  return /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/.test(name);
}

/**
 * The published site a URL is on: by custom hostname (any path), else `/sites/{basename}` on any other
 * host. Only published sites are found, and on a custom hostname only once its DNS is verified. Basenames are unique across the instance (sites migration 0005).
 */
export async function findPublishedSite(em: EntityManager, req: PublishedUrlRequest): Promise<SiteMatch | null> {
  return matchPublishedSite(req, async (by) => {
    const site = await em.findOne(Site, publishedSiteWhere(by));
    return site ? { site } : null;
  });
}

/**
 * `findPublishedSite` with the lookup given (`find` answers a published site by hostname or basename, and
 * whatever it holds with it: the cached structure of `site-cache.ts`).
 */
export async function matchPublishedSite<T extends { site: ISite }>(
  req: PublishedUrlRequest,
  find: (by: SiteKey) => Promise<T | null>,
): Promise<(T & SiteMatch) | null> {
  const segments = decodeSegments(req.path);
  if (!segments) return null;
  if (isCustomHost(req.host, req.publicBase)) {
    const found = await find({ hostname: hostnameOf(req.host) });
    if (found) return { ...found, siteBasePath: '', segments };
  }
  if (segments[0] !== 'sites' || segments[1] === undefined) return null;
  const found = await find({ basename: segments[1] });
  if (!found) return null;
  return {
    ...found,
    siteBasePath: `/sites/${encodeURIComponent(found.site.basename)}`,
    segments: segments.slice(2),
  };
}

const encodePath = (segments: string[]) => segments.map((s) => `/${encodeURIComponent(s)}`).join('');

/**
 * The section, site space and page path the segments name, among what the visitor may see (hidden site
 * spaces, and sections and site spaces whose condition does not hold, are skipped): the first segment picks
 * a section other than the site's default by its path, the next a site space of that level other than its
 * default; the rest is the page path. Without such a segment, the default (or the first visible one) is
 * taken. Null when the site shows nothing to this visitor.
 */
export function matchStructure(
  tree: SiteTree,
  match: SiteMatch,
  visitor: ConditionContext,
  log?: ConditionLogger,
): StructureMatch | null {
  const rest = [...match.segments];
  let section: ISiteSection | null = null;
  let open = false;
  if (tree.kind === 'sections') {
    const visible = visibleSections(tree, visitor, log);
    const named = visible.find((s) => s.id !== tree.defaultSection?.id && s.path === rest[0]);
    section = named ?? visible.find((s) => s.id === tree.defaultSection?.id) ?? visible[0] ?? null;
    if (!section) return null;
    if (named) rest.shift();
    else open = visible.length > 1;
  }
  const level = section?.id ?? null;
  const spaces = visibleSpaces(tree, level, visitor, log);
  const stored = tree.effectiveDefault(level)?.entity.id;
  const named = spaces.find((t) => t.entity.id !== stored && t.entity.path === rest[0]);
  const siteSpace = named ?? spaces.find((t) => t.entity.id === stored) ?? spaces[0];
  if (!siteSpace) return null;
  // A named site space ends the structure segments (a section would have come first).
  if (named) rest.shift();
  open = !named && (open || spaces.length > 1);
  return {
    tree,
    section,
    siteSpace,
    basePath: siteSpaceBasePath(tree, match.siteBasePath, siteSpace),
    pagePath: rest.join('/'),
    complete: rest.length > 0 || !open,
  };
}

/** The sections this visitor sees: their condition holds and they show a site space to the visitor. */
export function visibleSections(tree: SiteTree, visitor: ConditionContext, log?: ConditionLogger): ISiteSection[] {
  return tree.sections.filter(
    (s) => conditionHolds(s.condition, visitor, log) && visibleSpaces(tree, s.id, visitor, log).length > 0,
  );
}

/** The site spaces of a level this visitor sees, in order. */
export function visibleSpaces(
  tree: SiteTree,
  level: string | null,
  visitor: ConditionContext,
  log?: ConditionLogger,
): TreeSpace[] {
  return tree.visibleIn(level).filter((t) => conditionHolds(t.entity.condition, visitor, log));
}

/** Every site space of the site this visitor sees, in structure order (in sections it sees, or at the root). */
export function siteSpacesShownTo(tree: SiteTree, visitor: ConditionContext, log?: ConditionLogger): TreeSpace[] {
  if (tree.kind !== 'sections') return visibleSpaces(tree, null, visitor, log);
  return visibleSections(tree, visitor, log).flatMap((s) => visibleSpaces(tree, s.id, visitor, log));
}

/**
 * The URL path of a site space's root (`/sites/docs/v2`): its section's path unless the site's default
 * section, its own path unless its level's default — as its `urls.published`.
 */
export function siteSpaceBasePath(tree: SiteTree, siteBasePath: string, t: TreeSpace): string {
  const level = t.entity.sectionId ?? null;
  const segments: string[] = [];
  if (level && tree.defaultSection?.id !== level) segments.push(tree.section(level)!.path);
  if (tree.effectiveDefault(level)?.entity.id !== t.entity.id) segments.push(t.entity.path);
  return siteBasePath + encodePath(segments);
}

export type PublishedUrlResolution =
  | ({ kind: 'found'; site: ISite; siteBasePath: string } & StructureMatch)
  /** No published site at this URL, or nothing on it this visitor may see. */
  | { kind: 'not-found'; site: ISite | null };

/**
 * A published URL, resolved for a visitor whose audience was already checked (see `audience.ts`): the site,
 * its section, site space, page path and base paths. The page path is not checked against the content.
 */
export async function resolvePublishedUrl(
  em: EntityManager,
  req: PublishedUrlRequest,
  visitor: ConditionContext,
  log?: ConditionLogger,
): Promise<PublishedUrlResolution> {
  const match = await findPublishedSite(em, req);
  if (!match) return { kind: 'not-found', site: null };
  const tree = await SiteTree.load(em, match.site.id);
  const found = matchStructure(tree, match, visitor, log);
  if (!found) return { kind: 'not-found', site: match.site };
  return { kind: 'found', site: match.site, siteBasePath: match.siteBasePath, ...found };
}
