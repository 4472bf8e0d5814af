/**
 * Which URLs belong to an imported site, and how they are told apart.
 *
 * - One page, one key: the URL without its fragment, `…/index.html` (or `.htm`) read as its folder, and no
 *   trailing slash (`/docs/`, `/docs/index.html` and `/docs` are one page). The query is kept.
 * - The site is the start URL's origin, under the start URL's folder: `https://acme.io/docs/intro.html` and
 *   `https://acme.io/docs/` both import `https://acme.io/docs/…`; `https://acme.io/docs` (no extension) is taken
 *   as the folder `/docs`; `https://acme.io/` is the whole origin. Pages elsewhere on the origin are not
 *   followed: they are not part of what was asked for.
 */

const INDEX_FILE = /\/index\.html?$/i;
/** The last segment names a file (`intro.html`, `guide.php`), not a folder. */
const FILE_SEGMENT = /\/[^/]*\.[a-z0-9]{1,5}$/i;
/** Extensions dropped from a page's slug (`setup.html` → `setup`). */
const PAGE_EXTENSION = /\.(?:html?|php|aspx?|jsp|cgi|shtml|xhtml)$/i;

/** The key of a page URL (see above); null when it is not an http(s) URL. */
export function pageKey(url: string | URL): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  u.hash = '';
  u.username = '';
  u.password = '';
  let path = u.pathname.replace(INDEX_FILE, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  u.pathname = path || '/';
  return u.href;
}

export interface SiteScope {
  origin: string;
  /** The folder every page lives under (`/docs`; empty for the whole origin). */
  folder: string;
  /** Whether the page of this key belongs to the site. */
  contains(key: string): boolean;
  /** The path of a page of the site below its folder, as segments (`/docs/guides/setup` → `['guides', 'setup']`). */
  segments(key: string): string[];
}

/** The scope of an import started at `startKey` (a page key: after redirects, the URL the start page was read from). */
export function siteScope(startKey: string): SiteScope {
  const start = new URL(startKey);
  const folder = (start.pathname.replace(FILE_SEGMENT, '') || '/').replace(/\/+$/, '');
  const inFolder = (path: string) => folder === '' || path === folder || path.startsWith(`${folder}/`);
  return {
    origin: start.origin,
    folder,
    contains: (key) => {
      const u = new URL(key);
      return u.origin === start.origin && inFolder(u.pathname);
    },
    segments: (key) =>
      new URL(key).pathname
        .slice(folder.length)
        .split('/')
        .filter(Boolean)
        .map((segment) => {
          try {
            return decodeURIComponent(segment);
          } catch {
            return segment;
          }
        }),
  };
}

/** The slug-worthy name of a path segment: `getting-started.html` → `getting-started`. */
export const segmentName = (segment: string): string => segment.replace(PAGE_EXTENSION, '');
