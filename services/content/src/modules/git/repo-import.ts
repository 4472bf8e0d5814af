import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Heading, List, ListItem, Root } from '@quire/document/syntax';
import { dump } from 'js-yaml';
import { parse as parseYaml } from 'yaml';
import { invalid, slugify } from '@quire/kit';
import { parseMarkdown } from '@quire/document/syntax';
import { decodeEntities, refFromUrl } from '@quire/document/model';
import { readMarkdownPage } from '../parsing/parse-tasks.ts';
import { headingsFromGitbook } from './heading-levels.ts';
import { ASSETS_DIR, INCLUDES_DIR, type RepoContent, type RepoPage, type RepoReusableContent } from './repo-export.ts';
import { cleanPath, resolveRelative, rewriteUrls, type UrlPlace } from './link-rewriter.ts';

/** How ids are chosen for what the repository holds: the same path (or a renamed file) keeps its id. */
export interface IdSource {
  page(path: string): string;
  file(path: string): string;
  /** A reusable content's (`.gitbook/includes/<slug>.md`); the page's when not given. */
  reusable?(path: string): string;
}

export interface ImportedRepo extends RepoContent {
  /** Every page's, file's and reusable content's path, by id. */
  paths: Map<string, string>;
  /** `.gitbook.yaml`'s redirects: old path → target path (under the root). */
  redirects: Record<string, string>;
  /** The redirects whose target is a page of the tree: old path (relative to the space's URL) → page id. */
  pageRedirects: Record<string, string>;
}

/** At most this many `.gitbook.yaml` redirects are read (the rest is left out). */
export const MAX_GIT_REDIRECTS = 1_000;
/** The longest redirect source read. */
const MAX_REDIRECT_SOURCE = 512;

/**
 * A redirect's source as `.gitbook.yaml` gives it, relative to the space's URL: `/help/`, `./help` → `help`. Null
 * for an empty one, one with `.`/`..` segments, a query or fragment, or one too long.
 */
export function redirectSource(from: string): string | null {
  const path = from
    .trim()
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+|\/+$/g, '');
  if (!path || path.length > MAX_REDIRECT_SOURCE || /[?#\s\\]/.test(path)) return null;
  return path.split('/').some((s) => s === '' || s === '.' || s === '..') ? null : path;
}

interface GitbookYaml {
  root: string;
  readme: string;
  summary: string;
  redirects: Record<string, string>;
}

/** The text of an mdast node (its text and code leaves). */
const plainText = (node: unknown): string => {
  const n = node as { value?: unknown; children?: unknown[] };
  if (typeof n.value === 'string') return n.value;
  return (n.children ?? []).map(plainText).join('');
};

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** `.gitbook.yaml` read: `root` (refused outside the repository), `structure.readme|summary`, `redirects`. */
export function readGitbookYaml(source: string | undefined): GitbookYaml {
  let doc: Record<string, unknown> = {};
  if (source !== undefined) {
    try {
      const parsed: unknown = parseYaml(source, { maxAliasCount: 100 });
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) doc = parsed as Record<string, unknown>;
    } catch {
      throw invalid('Invalid repository: .gitbook.yaml: not valid YAML');
    }
  }
  const root = cleanPath(text(doc.root) ?? '');
  if (root === null) throw invalid('Invalid repository: .gitbook.yaml: root: outside the repository');
  const structure = (doc.structure && typeof doc.structure === 'object' ? doc.structure : {}) as Record<
    string,
    unknown
  >;
  const redirects: Record<string, string> = {};
  if (doc.redirects && typeof doc.redirects === 'object') {
    for (const [from, to] of Object.entries(doc.redirects as Record<string, unknown>)) {
      if (Object.keys(redirects).length >= MAX_GIT_REDIRECTS) break;
      const source = redirectSource(from);
      const target = typeof to === 'string' ? cleanPath(to.trim()) : null;
      if (source && target) redirects[source] = target;
    }
  }
  return {
    root,
    readme: text(structure.readme) ?? 'README.md',
    summary: text(structure.summary) ?? 'SUMMARY.md',
    redirects,
  };
}

interface Entry {
  kind: 'document' | 'group' | 'link';
  title: string | null;
  path: string | null;
  href: string | null;
  /** A group's slug, as its heading's anchor gives it (`## Title <a href="#slug" id="slug"></a>`). */
  slug?: string;
  children: Entry[];
}

function entriesOfList(list: List, summaryPath: string): Entry[] {
  const out: Entry[] = [];
  for (const item of list.children as ListItem[]) {
    const para = item.children.find((c) => c.type === 'paragraph');
    const link = para?.children.find((c) => c.type === 'link');
    const sub = item.children.find((c): c is List => c.type === 'list');
    const children = sub ? entriesOfList(sub, summaryPath) : [];
    if (!link) {
      out.push(...children);
      continue;
    }
    const title = plainText(link).trim() || null;
    const target = resolveRelative(summaryPath, link.url);
    if (target?.path.toLowerCase().endsWith('.md'))
      out.push({ kind: 'document', title, path: target.path, href: null, children });
    else if (/^https?:\/\//i.test(link.url)) out.push({ kind: 'link', title, path: null, href: link.url, children });
    else out.push(...children);
  }
  return out;
}

/** GitBook's anchor after a heading's text: `<a href="#slug" id="slug"></a>`. */
const ANCHOR = /^<a\s+href="#([^"]*)"\s+id="([^"]*)"\s*>$/;

/** A SUMMARY.md group heading: its title (without GitBook's anchor) and the anchor's slug. */
function groupOf(node: Heading): Entry {
  const parts = [...node.children];
  let slug: string | undefined;
  const [open, close] = parts.slice(-2);
  const m = open?.type === 'html' ? ANCHOR.exec(open.value) : null;
  if (m && m[1] === m[2] && close?.type === 'html' && close.value === '</a>') {
    parts.splice(-2);
    slug = slugify(m[1]!) || undefined;
  }
  const title = parts.map(plainText).join('').trim() || 'Group';
  return { kind: 'group', title, path: null, href: null, slug: slug ?? slugify(title), children: [] };
}

/** `SUMMARY.md`'s tree: bullet lists of links, optional `## ` groups (a group's pages are its sub-pages). */
export function readSummary(source: string, summaryPath: string): Entry[] {
  const { tree } = parseMarkdown(source);
  const top: Entry[] = [];
  let group: Entry | null = null;
  for (const node of (tree as Root).children) {
    if (node.type === 'heading' && node.depth === 2) {
      group = groupOf(node);
      top.push(group);
    } else if (node.type === 'list') (group ? group.children : top).push(...entriesOfList(node, summaryPath));
  }
  return top;
}

/** The tree inferred from folders: a folder's `README.md` is its page, other `.md` files and folders its children. */
export function treeFromFolders(paths: readonly string[], root: string, readme: string): Entry[] {
  const under = (dir: string) =>
    paths.filter((p) => p.startsWith(dir) && !p.startsWith(`${root ? `${root}/` : ''}.gitbook/`));
  const walk = (dir: string): Entry[] => {
    const here = under(dir).map((p) => p.slice(dir.length));
    const files = here.filter((p) => !p.includes('/') && p.toLowerCase().endsWith('.md') && p !== 'SUMMARY.md').sort();
    const dirs = [...new Set(here.filter((p) => p.includes('/')).map((p) => p.split('/')[0]!))].sort();
    const out: Entry[] = [];
    for (const f of files)
      if (!(dir === (root ? `${root}/` : '') && f === readme) && f !== 'README.md') out.push(entry(`${dir}${f}`, []));
    for (const d of dirs) {
      const children = walk(`${dir}${d}/`);
      const folderReadme = `${dir}${d}/README.md`;
      if (paths.includes(folderReadme)) out.push(entry(folderReadme, children));
      else out.push(...children);
    }
    return out;
  };
  const rootDir = root ? `${root}/` : '';
  const first = paths.includes(`${rootDir}${readme}`) ? [entry(`${rootDir}${readme}`, [])] : [];
  return [...first, ...walk(rootDir)];
}
const entry = (path: string, children: Entry[]): Entry => ({
  kind: 'document',
  title: null,
  path,
  href: null,
  children,
});

const slugOf = (path: string) => {
  const parts = path.split('/');
  const last = parts.at(-1)!;
  const stem = /^readme\.md$/i.test(last) && parts.length > 1 ? parts.at(-2)! : last.replace(/\.md$/i, '');
  return slugify(stem);
};

interface ReadContext {
  files: ReadonlyMap<string, Uint8Array>;
  ids: IdSource;
  textOf(path: string): string | undefined;
  rootDir: string;
  summaryPath: string;
  pageIdByPath: Map<string, string>;
  /** Path of every page and file read, by id. */
  paths: Map<string, string>;
  /** The id of the file at a path (not markdown), given on first use. */
  fileFor(path: string): string | undefined;
  /** The name of a file by id (once `fileFor` gave it). */
  fileNameOf(id: string): string | undefined;
  /** The id of each reusable content's file (`.gitbook/includes/<slug>.md`), by path. */
  reusableIdByPath: ReadonlyMap<string, string>;
}

/** A page's markdown with its relative links to pages and files turned into references. */
function bodyOf(ctx: ReadContext, from: string, body: string): string {
  const rewritten = rewriteUrls(body, (url, place) => referenceOf(ctx, from, url, place));
  const markdown = headingsFromGitbook(fileLinkTexts(ctx, rewritten)).trim();
  return markdown ? `${markdown}\n` : '';
}

/** An HTML link to a file (GitBook's table cells: files, image), its reference made, its text still the file's name. */
const FILE_LINK = /<a href="gitbook-file:([^"<>]+)">([^<]*)<\/a>/g;

/**
 * GitBook writes a file's link in a table cell with the file's name as its text (`<a href="../.gitbook/assets/x.png">
 * x.png</a>`); the document keeps no text for it (its writer gives the reference), so it is read so: the export
 * writes the name back (`repoFilesOf`).
 */
const fileLinkTexts = (ctx: ReadContext, markdown: string) =>
  markdown.includes('<a href="gitbook-file:')
    ? markdown.replace(FILE_LINK, (whole, id: string, label: string) =>
        ctx.fileNameOf(id) === decodeEntities(label) ? `<a href="gitbook-file:${id}">gitbook-file:${id}</a>` : whole,
      )
    : markdown;

/**
 * What a relative URL of the file at `from` stands for: `/pages/<id>#anchor`, `gitbook-file:<id>`, a reusable
 * content's id (an include's path), or undefined.
 */
function referenceOf(ctx: ReadContext, from: string, url: string, place?: UrlPlace): string | undefined {
  const target = resolveRelative(from, url);
  if (!target) return undefined;
  if (place === 'include') return target.anchor ? undefined : ctx.reusableIdByPath.get(target.path);
  // a folder's URL (`guides/`) is its README.md's page, as GitBook writes content-refs to it
  const page = ctx.pageIdByPath.get(target.path) ?? ctx.pageIdByPath.get(`${target.path}/README.md`);
  if (page) return `/pages/${page}${target.anchor}`;
  const file = ctx.fileFor(target.path);
  return file ? `gitbook-file:${file}` : undefined;
}

/** The front matter keys a page holds itself (written back from the page's attributes). */
const PAGE_FRONT_MATTER = ['description', 'icon', 'emoji', 'hidden'];

/**
 * The front matter a page's document keeps (everything but the page's own keys: `cover`, `coverY`, `layout`,
 * `tags`, `metadata`, `noIndex`…), in its order; a relative `cover` becomes the file's reference.
 */
function documentFrontMatter(ctx: ReadContext, from: string, meta: Record<string, unknown>) {
  const rest = Object.entries(meta).filter(([key]) => !PAGE_FRONT_MATTER.includes(key));
  return rest.map(([key, value]): [string, unknown] => {
    if (key !== 'cover' || typeof value !== 'string') return [key, value];
    return [key, referenceOf(ctx, from, value) ?? value];
  });
}

/** GitBook's page cover from the front matter kept (`cover` a file's reference or a URL by then, `coverY`). */
function coverOf(kept: [string, unknown][]): Pick<RepoPage, 'cover'> {
  const meta = Object.fromEntries(kept);
  if (typeof meta.cover !== 'string' || !meta.cover) return {};
  return { cover: { ref: refFromUrl(meta.cover), yPos: typeof meta.coverY === 'number' ? meta.coverY : 0 } };
}

/**
 * The page of a SUMMARY.md (or folder) entry, with its sub-pages; null for a file listed twice or missing. A generator
 * that pauses after each page read (see `readRepoYielding`).
 */
function* pageOf(ctx: ReadContext, e: Entry, siblings: Set<string>): Generator<void, RepoPage | null> {
  const pseudo = `#${e.kind}:${e.title}:${e.href ?? ''}`;
  const id = e.kind !== 'document' ? ctx.ids.page(pseudo) : e.path ? ctx.pageIdByPath.get(e.path) : undefined;
  if (!id || (e.kind === 'document' && ctx.paths.has(id))) return null;
  const read = e.path ? readMarkdownPage(ctx.textOf(e.path)!) : { body: '', meta: {}, heading: undefined };
  if ('error' in read) throw invalid(`Invalid repository: ${e.path}: ${read.error}`);
  if (e.path) ctx.paths.set(id, e.path);
  const meta = read.meta;
  const base = e.path ? slugOf(e.path.slice(ctx.rootDir.length)) : (e.slug ?? '');
  let slug = base;
  for (let n = 2; slug && siblings.has(slug); n++) slug = `${base}-${n}`;
  if (slug) siblings.add(slug);
  const kids = new Set<string>();
  const from = e.path ?? ctx.summaryPath;
  const kept = documentFrontMatter(ctx, from, meta);
  const front = kept.length ? `---\n${dump(Object.fromEntries(kept)).trimEnd()}\n---\n\n` : '';
  const body = bodyOf(ctx, from, read.body);
  yield;
  const children: RepoPage[] = [];
  for (const c of e.children) {
    const child = yield* pageOf(ctx, c, kids);
    if (child) children.push(child);
  }
  return {
    id,
    kind: e.kind,
    title: e.title ?? read.heading?.trim() ?? text(meta.title) ?? (slug || 'Untitled'),
    slug,
    emoji: text(meta.emoji),
    icon: text(meta.icon),
    description: text(meta.description),
    hidden: meta.hidden === true,
    href: e.href,
    markdown: front || body ? `${front}${body}` : '',
    ...(meta.noIndex === true ? { noIndex: true } : {}),
    ...(meta.noRobotsIndex === true ? { noRobotsIndex: true } : {}),
    ...coverOf(kept),
    children,
  };
}

/**
 * A reusable content's file as GitBook writes it: front matter `title` (else the file's name), then its markdown,
 * read as a page's body (links relative to the file, headings one level up), nothing taken out of it.
 */
function reusableOf(ctx: ReadContext, path: string, id: string): RepoReusableContent {
  const source = ctx.textOf(path)!;
  let meta: Record<string, unknown> = {};
  let body = source;
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (front) {
    try {
      const parsed: unknown = parseYaml(front[1]!, { maxAliasCount: 100 });
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
    } catch {
      throw invalid(`Invalid repository: ${path}: the frontmatter is not valid YAML`);
    }
    body = source.slice(front[0].length);
  }
  const name = path.split('/').at(-1)!.replace(/\.md$/i, '');
  const title = (text(meta.title) ?? text(name) ?? 'Untitled').slice(0, 255);
  return { id, title, markdown: bodyOf(ctx, path, body) };
}

/**
 * A repository in GitBook's format read into content: `files` maps a repository path (relative to its top) to
 * its bytes. Pages come from `SUMMARY.md` (or the folders), their text from their markdown files; relative links
 * to pages and files become `/pages/<id>` and `gitbook-file:<id>`; files are what pages reference and what
 * `.gitbook/assets/` holds.
 */
export function readRepo(files: ReadonlyMap<string, Uint8Array>, ids: IdSource): ImportedRepo {
  const steps = readSteps(files, ids);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `readRepo`, giving the event loop a turn whenever it has run `sliceMs` at once: reading a page's links parses its
 * markdown, which for a few hundred pages takes seconds on a busy machine, too long to keep requests waiting.
 */
export async function readRepoYielding(
  files: ReadonlyMap<string, Uint8Array>,
  ids: IdSource,
  sliceMs = 10,
): Promise<ImportedRepo> {
  const steps = readSteps(files, ids);
  let since = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - since >= sliceMs) {
      await yieldToLoop();
      since = performance.now();
    }
  }
}

function* readSteps(files: ReadonlyMap<string, Uint8Array>, ids: IdSource): Generator<void, ImportedRepo> {
  const dec = new TextDecoder();
  const textOf = (p: string) => (files.has(p) ? dec.decode(files.get(p)) : undefined);
  const config = readGitbookYaml(textOf('.gitbook.yaml'));
  const rootDir = config.root ? `${config.root}/` : '';
  const summaryPath = `${rootDir}${config.summary}`;
  const summary = textOf(summaryPath);
  const entries =
    summary !== undefined
      ? readSummary(summary, summaryPath)
      : treeFromFolders([...files.keys()], config.root, config.readme);
  const pageIdByPath = new Map<string, string>();
  const assign = (list: Entry[]) => {
    for (const e of list) {
      if (e.path && files.has(e.path) && !pageIdByPath.has(e.path)) pageIdByPath.set(e.path, ids.page(e.path));
      assign(e.children);
    }
  };
  assign(entries);
  const fileIds = new Map<string, string>();
  const fileNames = new Map<string, string>();
  const fileFor = (path: string) => {
    if (!files.has(path) || path.toLowerCase().endsWith('.md')) return undefined;
    let id = fileIds.get(path);
    if (!id) {
      fileIds.set(path, (id = ids.file(path)));
      fileNames.set(id, path.split('/').at(-1)!);
    }
    return id;
  };
  for (const p of files.keys())
    if (p.startsWith(`${rootDir}${ASSETS_DIR}/`) || p.startsWith(`${ASSETS_DIR}/`)) fileFor(p);
  const reusableIdByPath = reusableIdsOf(files, rootDir, ids);
  const paths = new Map<string, string>();
  const fileNameOf = (id: string) => fileNames.get(id);
  const ctx: ReadContext = {
    ...{ files, ids, textOf, rootDir, summaryPath, pageIdByPath, paths },
    ...{ fileFor, fileNameOf, reusableIdByPath },
  };
  const top = new Set<string>();
  const pages: RepoPage[] = [];
  for (const e of entries) {
    const page = yield* pageOf(ctx, e, top);
    if (page) pages.push(page);
  }
  const reusableContents: RepoReusableContent[] = [];
  for (const [path, id] of reusableIdByPath) {
    reusableContents.push(reusableOf(ctx, path, id));
    paths.set(id, path);
    yield;
  }
  const out: RepoContent['files'] = [];
  for (const [path, id] of fileIds) {
    ctx.paths.set(id, path);
    out.push({ id, name: path.split('/').at(-1)!, bytes: files.get(path)! });
  }
  const pageRedirects = pageRedirectsOf(config.redirects, rootDir, pageIdByPath, ctx.paths);
  return { pages, files: out, reusableContents, paths, redirects: config.redirects, pageRedirects };
}

/** GitBook's reusable contents: `.gitbook/includes/<slug>.md` of the project directory (or the repository's top). */
function reusableIdsOf(files: ReadonlyMap<string, Uint8Array>, rootDir: string, ids: IdSource): Map<string, string> {
  const reusableIdByPath = new Map<string, string>();
  const includeDirs = [`${rootDir}${INCLUDES_DIR}/`, `${INCLUDES_DIR}/`];
  for (const p of [...files.keys()].sort())
    if (includeDirs.some((d) => p.startsWith(d) && !p.slice(d.length).includes('/')) && /\.md$/i.test(p))
      reusableIdByPath.set(p, (ids.reusable ?? ids.page)(p));
  return reusableIdByPath;
}

/** `.gitbook.yaml`'s redirects to pages read: a target is relative to the root, a page's file or its folder's README. */
function pageRedirectsOf(
  redirects: Record<string, string>,
  rootDir: string,
  pageIdByPath: ReadonlyMap<string, string>,
  read: ReadonlyMap<string, string>,
): Record<string, string> {
  const pageRedirects: Record<string, string> = {};
  for (const [source, target] of Object.entries(redirects)) {
    const page = pageIdByPath.get(`${rootDir}${target}`) ?? pageIdByPath.get(`${rootDir}${target}/README.md`);
    if (page && read.get(page)) pageRedirects[source] = page;
  }
  return pageRedirects;
}
