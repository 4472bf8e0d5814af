import { dump } from 'js-yaml';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { decodeOr, gitbookHtmlText, gitbookMarkdown, refFromUrl } from '@quire/document/model';
import type { DocumentRef } from '@quire/contracts';
import { slugify } from '@quire/kit';
import type { PageSnapshot } from '../merge/tree.ts';
import { headingsToGitbook } from './heading-levels.ts';
import { relativePath, rewriteUrls, writeUrl, type UrlPlace } from './link-rewriter.ts';

/** A page as Git Sync writes it: its metadata, its markdown (page links `/pages/<id>`, files `gitbook-file:<id>`). */
export interface RepoPage
  extends Pick<PageSnapshot, 'id' | 'kind' | 'title' | 'slug' | 'emoji' | 'icon' | 'description' | 'hidden' | 'href'> {
  markdown: string;
  children: RepoPage[];
  /** Set when the page's front matter says so (then kept in its document's front matter too). */
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** GitBook's page cover, when the front matter gives one (`cover`, `coverY`; also kept in the document's). */
  cover?: { ref: DocumentRef; yPos: number };
}

/** The attributes a page keeps as they are through the repository, either way: its title, slug, icons and visibility. */
export const repoAttributes = (p: Pick<RepoPage, 'title' | 'slug' | 'emoji' | 'icon' | 'description' | 'hidden'>) => ({
  title: p.title,
  slug: p.slug,
  emoji: p.emoji,
  icon: p.icon,
  description: p.description,
  hidden: p.hidden,
});

/** A reusable content as Git Sync writes it: `.gitbook/includes/<slug>.md`, front matter `title`, then its markdown. */
export interface RepoReusableContent {
  id: string;
  title: string;
  /** Its markdown (page links `/pages/<id>`, files `gitbook-file:<id>`, as a page's). */
  markdown: string;
}

export interface RepoFile {
  id: string;
  name: string;
  bytes: Uint8Array;
}

/** A space's content in the terms of the repository format: the page tree in order, and the files. */
export interface RepoContent {
  pages: RepoPage[];
  files: RepoFile[];
  /** The space's reusable contents (GitBook's `.gitbook/includes/`); none when absent. */
  reusableContents?: RepoReusableContent[] | undefined;
  /** `.gitbook.yaml`'s redirects: a source path (relative to the space's URL) → the id of the page it leads to. */
  pageRedirects?: Readonly<Record<string, string>> | undefined;
  /**
   * Where pages and files were last read from or written to (by id, relative to the project directory, see
   * `knownPathsOf`): they are written there again when they still can be, so paths, URLs and links do not change.
   */
  knownPaths?: ReadonlyMap<string, string> | undefined;
  /**
   * The source URL of each OpenAPI specification of the organization (by slug): an OpenAPI block's link to its
   * spec (`gitbook-openapi:<slug>`) is written as that URL, as GitBook's Git Sync writes it.
   */
  specUrls?: ReadonlyMap<string, string> | undefined;
}

export const ASSETS_DIR = '.gitbook/assets';
/** Where GitBook writes reusable contents (`<slug>.md`, relative to the project directory). */
export const INCLUDES_DIR = '.gitbook/includes';

const escapeLinkText = (text: string) => text.replace(/([\\[\]])/g, '\\$1');

/** Paths no page may take (compared without case). */
const RESERVED = ['summary.md', '.gitbook.yaml'];

const isReadme = (path: string) => /(^|\/)readme\.md$/i.test(path);

/**
 * Where each document page is written: where it was read from (`known`) when that path is still free; else a
 * page with sub-pages is its folder's `README.md`, others `<slug>.md`, in the folder of their parent (a group's
 * folder is its slug, as GitBook writes it). A path taken already gets `-2`, `-3`… (never two pages in one file).
 */
export function pagePathsOf(
  pages: readonly RepoPage[],
  known: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set(RESERVED);
  const free = (path: string) => !taken.has(path.toLowerCase());
  const pathOf = (page: RepoPage, dir: string): string => {
    const wanted = known.get(page.id);
    if (wanted && /\.md$/i.test(wanted) && free(wanted)) return wanted;
    const name = page.slug || page.id;
    // The top-level page `readme` is the repository's README.md (what GitBook's structure.readme names).
    const file = page.children.length === 0 && dir === '' && name === 'readme' ? 'README' : name;
    const at = (n: string) => (page.children.length > 0 ? `${dir}${name}${n}/README.md` : `${dir}${file}${n}.md`);
    let path = at('');
    for (let n = 2; !free(path); n++) path = at(`-${n}`);
    return path;
  };
  const walk = (list: readonly RepoPage[], dir: string) => {
    for (const page of list) {
      if (page.kind === 'group') walk(page.children, page.slug ? `${dir}${page.slug}/` : dir);
      else if (page.kind === 'link') walk(page.children, `${dir}${page.slug || page.id}/`);
      else {
        const path = pathOf(page, dir);
        taken.add(path.toLowerCase());
        out.set(page.id, path);
        walk(page.children, isReadme(path) ? path.slice(0, -'README.md'.length) : `${path.slice(0, -3)}/`);
      }
    }
  };
  walk(pages, '');
  return out;
}

/**
 * Where each file is written: where it was read from (`known`) when still free, else `.gitbook/assets/<name>`; a
 * name taken twice gets the file's id before its extension.
 */
export function filePathsOf(
  files: readonly RepoFile[],
  known: ReadonlyMap<string, string> = new Map(),
  pagePaths: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set([...RESERVED, ...[...pagePaths.values()].map((p) => p.toLowerCase())]);
  for (const f of [...files].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const wanted = known.get(f.id);
    if (wanted && !/\.md$/i.test(wanted) && !taken.has(wanted.toLowerCase())) {
      taken.add(wanted.toLowerCase());
      out.set(f.id, wanted);
      continue;
    }
    const safe = f.name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_') || f.id;
    let name = `${ASSETS_DIR}/${safe}`;
    if (taken.has(name.toLowerCase())) {
      const dot = safe.lastIndexOf('.');
      name = `${ASSETS_DIR}/${dot > 0 ? `${safe.slice(0, dot)}-${f.id}${safe.slice(dot)}` : `${safe}-${f.id}`}`;
    }
    taken.add(name.toLowerCase());
    out.set(f.id, name);
  }
  return out;
}

/**
 * Where each reusable content is written: where it was read from (`known`) when still free, else
 * `.gitbook/includes/<slug of its title>.md` (`-2`, `-3`… when taken), as GitBook names them.
 */
export function reusablePathsOf(
  list: readonly RepoReusableContent[],
  known: ReadonlyMap<string, string> = new Map(),
  taken: Iterable<string> = [],
): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set([...RESERVED, ...[...taken].map((p) => p.toLowerCase())]);
  const sorted = [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
  // the paths known first, so a new one never takes a path an existing one had
  for (const rc of sorted) {
    const wanted = known.get(rc.id);
    if (wanted && /\.md$/i.test(wanted) && !used.has(wanted.toLowerCase())) {
      used.add(wanted.toLowerCase());
      out.set(rc.id, wanted);
    }
  }
  for (const rc of sorted) {
    if (out.has(rc.id)) continue;
    const base = `${INCLUDES_DIR}/${slugify(rc.title) || rc.id}`;
    let path = `${base}.md`;
    for (let n = 2; used.has(path.toLowerCase()); n++) path = `${base}-${n}.md`;
    used.add(path.toLowerCase());
    out.set(rc.id, path);
  }
  return out;
}

/**
 * The paths a sync last recorded (`git_sync.paths`: repository path → page or file id, each path with the project
 * directory `prefix`), by id and without the prefix: what `RepoContent.knownPaths` takes. Groups and links (keys
 * starting `#`) have no file.
 */
export function knownPathsOf(
  recorded: Readonly<
    Record<
      string,
      { page?: string | undefined; file?: string | undefined; reusable?: string | undefined; oid?: string }
    >
  >,
  prefix: string,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, ids] of Object.entries(recorded)) {
    const id = ids.page ?? ids.file ?? ids.reusable;
    if (!id || path.startsWith('#') || !path.startsWith(prefix)) continue;
    out.set(id, path.slice(prefix.length));
  }
  return out;
}

/**
 * GitBook writes a content-ref's link with its target's file name as its text (`[setup.md](guides/setup.md)`,
 * `[guides](guides/)`): the document keeps no text, so it is written so once the URL is a path.
 */
const CONTENT_REF = /^(\{% content-ref url="([^"]+)" %}\n)\[[^\]\n]*\]\(([^)\n]+)\)(\n\{% endcontent-ref %\})$/gm;
const contentRefTitles = (markdown: string) =>
  markdown.replace(CONTENT_REF, (whole, open: string, url: string, link: string, close: string) => {
    const bare = link.replace(/^<|>$/g, '');
    if (bare !== url || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/')) return whole;
    const name =
      url
        .replace(/[#?].*$/, '')
        .replace(/\/+$/, '')
        .split('/')
        .at(-1) || url;
    return `${open}[${name.replace(/([\\[\]])/g, '\\$1')}](${link})${close}`;
  });

/**
 * GitBook writes the link between an OpenAPI block's tags (`{% openapi src="…" %}`, `{% swagger src="…" %}`) with
 * its file's name as its text when the spec is a file (`[openapi.yaml](../.gitbook/assets/openapi.yaml)`), its URL
 * when it is one: written so once the file's reference is a path.
 */
const SPEC_LINK =
  /^(\{% (openapi|swagger) src="([^"]+)"[^\n]*%}\n)\[[^\]\n]*\]\((<[^>\n]+>|[^)\n]+)\)(\n\{% end(?:openapi|swagger) %\})$/gm;
const specLinkTitles = (markdown: string) =>
  markdown.replace(SPEC_LINK, (whole, open: string, _tag: string, src: string, link: string, close: string) => {
    const bare = link.replace(/^<|>$/g, '');
    if (bare !== src || /^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('/')) return whole;
    const name = src.split('/').at(-1) || src;
    return `${open}[${name.replace(/([\\[\]])/g, '\\$1')}](${link})${close}`;
  });

/** A link from the file at `from` to a page's file; a folder's README.md as its folder (`guides/`), as GitBook does. */
function pageLink(from: string, to: string): string {
  const rel = relativePath(from, to);
  return to.includes('/') && /(^|\/)README\.md$/.test(rel) && rel !== 'README.md'
    ? rel.slice(0, -'README.md'.length)
    : rel;
}

/** A page's stored markdown split: its document's front matter (an object) and the rest. */
function splitFrontMatter(markdown: string): { meta: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n+/.exec(markdown);
  if (!m) return { meta: {}, body: markdown };
  try {
    const meta: unknown = parseYaml(m[1]!);
    if (meta && typeof meta === 'object' && !Array.isArray(meta))
      return { meta: meta as Record<string, unknown>, body: markdown.slice(m[0].length) };
  } catch {
    // not front matter this writer made: left in the body
  }
  return { meta: {}, body: markdown };
}

/**
 * The front matter GitBook writes (js-yaml, as GitBook does): the page's description, icon and emoji, the keys its
 * document keeps (`cover` — a file reference made its relative path —, `coverY`, `layout`, `tags`…), `hidden`.
 */
function frontMatter(page: RepoPage, kept: Record<string, unknown>, cover: (url: string) => string | undefined) {
  const meta: Record<string, unknown> = {};
  if (page.description) meta.description = page.description;
  if (page.icon) meta.icon = page.icon;
  if (page.emoji) meta.emoji = page.emoji;
  for (const [key, value] of Object.entries(kept)) {
    if (PAGE_KEYS.has(key)) continue;
    meta[key] = key === 'cover' && typeof value === 'string' ? (cover(value) ?? value) : value;
  }
  if (page.hidden) meta.hidden = true;
  return Object.keys(meta).length ? `---\n${dump(meta).trimEnd()}\n---\n\n` : '';
}
const PAGE_KEYS = new Set(['description', 'icon', 'emoji', 'hidden']);

function summaryOf(pages: readonly RepoPage[], paths: Map<string, string>): string {
  const lines = ['# Table of contents', ''];
  const list = (items: readonly RepoPage[], depth: number) => {
    for (const p of items) {
      if (p.kind === 'group') continue;
      const target = p.kind === 'link' ? (p.href ?? '') : writeUrl(paths.get(p.id)!, 'markdown');
      lines.push(`${'  '.repeat(depth)}* [${escapeLinkText(p.title)}](${target})`);
      list(p.children, depth + 1);
    }
  };
  const loose = pages.filter((p) => p.kind !== 'group');
  list(loose, 0);
  for (const group of pages.filter((p) => p.kind === 'group')) {
    // GitBook writes a group's slug as its heading's anchor
    const anchor = group.slug ? ` <a href="#${group.slug}" id="${group.slug}"></a>` : '';
    lines.push('', `## ${group.title}${anchor}`, '');
    list(group.children, 0);
  }
  return `${lines.join('\n')}\n`;
}

/** A file's HTML link (a table cell's) with its reference as its text: the file's name, as GitBook writes it. */
const fileLinkNames = (markdown: string, filePaths: ReadonlyMap<string, string>) =>
  markdown.includes('">gitbook-file:')
    ? markdown.replace(/<a href="gitbook-file:([^"<>]+)">gitbook-file:\1<\/a>/g, (whole, id: string) => {
        const path = filePaths.get(id);
        return path ? `<a href="gitbook-file:${id}">${gitbookHtmlText(path.split('/').at(-1)!)}</a>` : whole;
      })
    : markdown;

/** `.gitbook.yaml`: the redirects whose page is still there, to its file (undefined when there are none). */
function gitbookYamlOf(pageRedirects: Record<string, string>, paths: ReadonlyMap<string, string>): string | undefined {
  const redirects = Object.entries(pageRedirects).filter(([, page]) => paths.has(page));
  if (!redirects.length) return undefined;
  return toYaml({ redirects: Object.fromEntries(redirects.map(([src, page]) => [src, paths.get(page)!])) });
}

/**
 * The files of a repository in GitBook's format holding `content`: a markdown file per document page (title as
 * its first heading, description/icon/emoji/hidden as front matter), `SUMMARY.md` with the tree and its order,
 * groups as `## ` sections, the files under `.gitbook/assets/`; links to pages and files become relative paths;
 * `.gitbook.yaml` with the redirects, when there are some.
 */
export function repoFilesOf(content: RepoContent): Map<string, Uint8Array> {
  const paths = pagePathsOf(content.pages, content.knownPaths);
  const filePaths = filePathsOf(content.files, content.knownPaths, paths);
  const reusable = content.reusableContents ?? [];
  const includePaths = reusablePathsOf(reusable, content.knownPaths, [...paths.values(), ...filePaths.values()]);
  const out = new Map<string, Uint8Array>();
  const enc = new TextEncoder();
  /** What a reference of the markdown file at `path` is written as (undefined: as it is). */
  const targetFrom = (path: string) => (url: string, place: UrlPlace) => {
    if (place === 'include') {
      const include = includePaths.get(url);
      return include ? writeUrl(relativePath(path, include), place) : undefined;
    }
    const m = /^\/pages\/([^/#?]+)(#.*)?$/.exec(url);
    const pagePath = m ? paths.get(m[1]!) : undefined;
    if (pagePath) return writeUrl(pageLink(path, pagePath) + (m![2] ?? ''), place);
    const ref = refFromUrl(url);
    const spec = /^gitbook-openapi:([^?#\s]+)$/.exec(url)?.[1];
    const specUrl = spec === undefined ? undefined : content.specUrls?.get(decodeOr(spec, spec));
    if (specUrl) return writeUrl(specUrl, place);
    const filePath = ref.kind === 'file' && ref.space === undefined ? filePaths.get(ref.file) : undefined;
    return filePath ? writeUrl(relativePath(path, filePath), place) : undefined;
  };
  /** A document's markdown as GitBook writes it in the file at `path`: its front matter apart, the body rewritten. */
  const written = (path: string, markdown: string) => {
    const target = targetFrom(path);
    const { meta, body: rest } = splitFrontMatter(gitbookMarkdown(markdown));
    const body = specLinkTitles(
      contentRefTitles(rewriteUrls(fileLinkNames(headingsToGitbook(rest), filePaths), target)),
    );
    return { meta, body: body.trim() ? `${body.trimEnd()}\n` : '', target };
  };
  const walk = (list: readonly RepoPage[]) => {
    for (const page of list) {
      const path = paths.get(page.id);
      if (path) {
        const { meta, body, target } = written(path, page.markdown);
        const head = `${frontMatter(page, meta, (url) => target(url, 'tag'))}# ${page.title}\n\n`;
        out.set(path, enc.encode(`${head}${body}`));
      }
      walk(page.children);
    }
  };
  // A reusable content's file: front matter `title` (js-yaml, as GitBook), then its body.
  for (const rc of reusable) {
    const path = includePaths.get(rc.id)!;
    const { body } = written(path, rc.markdown);
    out.set(path, enc.encode(`---\n${dump({ title: rc.title }).trimEnd()}\n---\n${body ? `\n${body}` : ''}`));
  }
  walk(content.pages);
  out.set('SUMMARY.md', enc.encode(summaryOf(content.pages, paths)));
  const yaml = gitbookYamlOf(content.pageRedirects ?? {}, paths);
  if (yaml) out.set('.gitbook.yaml', enc.encode(yaml));
  for (const f of content.files) out.set(filePaths.get(f.id)!, f.bytes);
  return out;
}
