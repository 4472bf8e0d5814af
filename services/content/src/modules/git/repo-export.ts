import { stringify as toYaml } from 'yaml';
import { refFromUrl } from '../documents/index.ts';
import type { PageSnapshot } from '../merge/tree.ts';
import { relativePath, rewriteUrls } from './link-rewriter.ts';

/** A page as Git Sync writes it: its metadata, its markdown (page links `/pages/<id>`, files `gitbook-file:<id>`). */
export interface RepoPage
  extends Pick<PageSnapshot, 'id' | 'kind' | 'title' | 'slug' | 'emoji' | 'icon' | 'description' | 'hidden' | 'href'> {
  markdown: string;
  children: RepoPage[];
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

export interface RepoFile {
  id: string;
  name: string;
  bytes: Uint8Array;
}

/** A space's content in the terms of the repository format: the page tree in order, and the files. */
export interface RepoContent {
  pages: RepoPage[];
  files: RepoFile[];
  /** `.gitbook.yaml`'s redirects: a source path (relative to the space's URL) → the id of the page it leads to. */
  pageRedirects?: Readonly<Record<string, string>> | undefined;
}

export const ASSETS_DIR = '.gitbook/assets';

const escapeLinkText = (text: string) => text.replace(/([\\[\]])/g, '\\$1');

/** Where each document page is written: a page with sub-pages is its folder's `README.md`, others `<slug>.md`. */
export function pagePathsOf(pages: readonly RepoPage[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (list: readonly RepoPage[], dir: string) => {
    for (const page of list) {
      const name = page.slug || page.id;
      const inner = page.kind === 'group' ? dir : `${dir}${name}/`;
      if (page.kind === 'document') {
        const hasDocs = page.children.length > 0;
        // The top-level page `readme` is the repository's README.md (what GitBook's structure.readme names).
        const file = !hasDocs && dir === '' && name === 'readme' ? 'README' : name;
        out.set(page.id, hasDocs ? `${inner}README.md` : `${dir}${file}.md`);
      }
      walk(page.children, inner);
    }
  };
  walk(pages, '');
  return out;
}

/** Where each file is written: `.gitbook/assets/<name>`, a name taken twice gets the file's id before its extension. */
export function filePathsOf(files: readonly RepoFile[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const f of [...files].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const safe = f.name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_') || f.id;
    let name = safe;
    if (taken.has(name.toLowerCase())) {
      const dot = safe.lastIndexOf('.');
      name = dot > 0 ? `${safe.slice(0, dot)}-${f.id}${safe.slice(dot)}` : `${safe}-${f.id}`;
    }
    taken.add(name.toLowerCase());
    out.set(f.id, `${ASSETS_DIR}/${name}`);
  }
  return out;
}

function frontMatter(page: RepoPage): string {
  const meta: Record<string, unknown> = {};
  if (page.description) meta.description = page.description;
  if (page.icon) meta.icon = page.icon;
  if (page.emoji) meta.emoji = page.emoji;
  if (page.hidden) meta.hidden = true;
  return Object.keys(meta).length ? `---\n${toYaml(meta).trimEnd()}\n---\n\n` : '';
}

function summaryOf(pages: readonly RepoPage[], paths: Map<string, string>): string {
  const lines = ['# Table of contents', ''];
  const list = (items: readonly RepoPage[], depth: number) => {
    for (const p of items) {
      if (p.kind === 'group') continue;
      const target = p.kind === 'link' ? (p.href ?? '') : encodeURI(paths.get(p.id)!);
      lines.push(`${'  '.repeat(depth)}* [${escapeLinkText(p.title)}](${target})`);
      list(p.children, depth + 1);
    }
  };
  const loose = pages.filter((p) => p.kind !== 'group');
  list(loose, 0);
  for (const group of pages.filter((p) => p.kind === 'group')) {
    lines.push('', `## ${group.title}`, '');
    list(group.children, 0);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The files of a repository in GitBook's format holding `content`: a markdown file per document page (title as
 * its first heading, description/icon/emoji/hidden as front matter), `SUMMARY.md` with the tree and its order,
 * groups as `## ` sections, the files under `.gitbook/assets/`; links to pages and files become relative paths;
 * `.gitbook.yaml` with the redirects, when there are some.
 */
export function repoFilesOf(content: RepoContent): Map<string, Uint8Array> {
  const paths = pagePathsOf(content.pages);
  const filePaths = filePathsOf(content.files);
  const out = new Map<string, Uint8Array>();
  const enc = new TextEncoder();
  const walk = (list: readonly RepoPage[]) => {
    for (const page of list) {
      const path = paths.get(page.id);
      if (path) {
        const body = rewriteUrls(page.markdown, (url) => {
          const m = /^\/pages\/([^/#?]+)(#.*)?$/.exec(url);
          const pagePath = m ? paths.get(m[1]!) : undefined;
          if (pagePath) return encodeURI(relativePath(path, pagePath)) + (m![2] ?? '');
          const ref = refFromUrl(url);
          const filePath = ref.kind === 'file' && ref.space === undefined ? filePaths.get(ref.file) : undefined;
          return filePath ? encodeURI(relativePath(path, filePath)) : undefined;
        });
        out.set(path, enc.encode(`${frontMatter(page)}# ${page.title}\n\n${body.trim() ? `${body.trimEnd()}\n` : ''}`));
      }
      walk(page.children);
    }
  };
  walk(content.pages);
  out.set('SUMMARY.md', enc.encode(summaryOf(content.pages, paths)));
  // The redirects whose page is still there, to its file: `.gitbook.yaml` (only when there are some).
  const redirects = Object.entries(content.pageRedirects ?? {}).filter(([, page]) => paths.has(page));
  if (redirects.length)
    out.set(
      '.gitbook.yaml',
      enc.encode(toYaml({ redirects: Object.fromEntries(redirects.map(([src, page]) => [src, paths.get(page)!])) })),
    );
  for (const f of content.files) out.set(filePaths.get(f.id)!, f.bytes);
  return out;
}
