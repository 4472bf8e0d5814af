import type { SiteRedirectDestination } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import { servedHostname, type ISite } from '../sites/site.entity.ts';
import { instanceSiteUrl } from '../sites/site.presenter.ts';
import type { SiteTree } from '../structure/site-tree.ts';

/** The path of a page in the live revision of a space (`getting-started/install`), or null when it has none. */
export type PagePathOf = (spaceId: string, pageId: string) => Promise<string | null>;

const joined = (segments: string[]) =>
  `/${segments.map((s) => s.split('/').map(encodeURIComponent).join('/')).join('/')}`;

/** The URL segments of a site space within its site: its section's path (unless default), its own (unless default). */
export function siteSpaceSegments(tree: SiteTree, siteSpaceId: string): string[] | null {
  const t = tree.siteSpace(siteSpaceId);
  if (!t || t.hidden) return null;
  const level = t.entity.sectionId ?? null;
  if (tree.kind === 'sections' && level === null) return null;
  const section = level ? tree.section(level) : undefined;
  const sectionPart = section && tree.defaultSection?.id !== section.id ? [section.path] : [];
  return [...sectionPart, ...(tree.effectiveDefault(level)?.entity.id === t.entity.id ? [] : [t.entity.path])];
}

/**
 * Where a destination leads: a path relative to the site's root (`/`, `/guides/v2/install`), percent-encoded,
 * or the absolute URL of an external destination. Null when the destination no longer exists (a section, a
 * site space or a page deleted since, a site space whose space is in the trash).
 */
export async function destinationTarget(
  tree: SiteTree,
  d: SiteRedirectDestination,
  pagePath: PagePathOf,
): Promise<string | null> {
  switch (d.kind) {
    case 'external':
      return d.url;
    case 'site-section': {
      const section = tree.section(d.siteSectionId);
      if (!section) return null;
      return joined(tree.defaultSection?.id === section.id ? [] : [section.path]);
    }
    case 'site-space': {
      const segments = siteSpaceSegments(tree, d.siteSpaceId);
      return segments ? joined(segments) : null;
    }
    case 'site-page': {
      const segments = siteSpaceSegments(tree, d.siteSpaceId);
      const spaceId = tree.siteSpace(d.siteSpaceId)?.entity.spaceId;
      const path = segments && spaceId ? await pagePath(spaceId, d.pageId) : null;
      return segments && path !== null ? joined([...segments, ...(path ? [path] : [])]) : null;
    }
  }
}

/**
 * The target with the rest of the path a wildcard source matched appended (`captureWildcard`); `.` and `..`
 * segments of the rest are dropped (they never climb above the target).
 */
export function withCapturedRest(target: string, rest: string): string {
  const clean = rest
    .split('/')
    .filter((s) => s && s !== '.' && s !== '..')
    .join('/');
  if (!clean) return target;
  const url = new URL(target, 'http://site.invalid');
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${clean}`;
  return /^https?:\/\//.test(target) ? url.toString() : url.pathname + url.search + url.hash;
}

/**
 * The absolute URL of a site-relative `path` (`/`, `/guides/install`): on the site's custom hostname when it has
 * one, else on the instance (`/sites/<basename>`), with `?share=<key>` when a share key opened the site.
 */
export function siteBaseUrl(urls: PublicUrls, site: ISite, shareKey: string | null, path: string): string {
  const base = servedHostname(site) ? `https://${servedHostname(site)}` : instanceSiteUrl(urls, site);
  const url = new URL(path === '/' ? base : base + path);
  if (shareKey) url.searchParams.set('share', shareKey);
  return url.toString();
}
