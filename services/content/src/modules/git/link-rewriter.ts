import type { Node } from 'unist';
import { visit } from 'unist-util-visit';
import { parseMarkdown } from '../documents/markdown-syntax.ts';

interface UrlNode extends Node {
  url: string;
}

const hasUrl = (node: Node): node is UrlNode => typeof (node as Partial<UrlNode>).url === 'string';

/** The `url="…"` of GitBook's `{% content-ref %}` and `{% embed %}` tags (a block's opening tag, or a lone tag). */
const TAG_URL = /^\{%-?\s*(?:content-ref|embed)\s[^%]*?\burl="([^"]*)"/;

/** Where a content-ref or embed tag's URL sits in the source (its offset), and the URL. */
function tagUrlOf(node: Node, source: string): { at: number; url: string } | null {
  const tag = node as Node & { open?: unknown; value?: unknown };
  const head = node.type === 'tagBlock' ? tag.open : node.type === 'liquidTag' ? tag.value : undefined;
  if (typeof head !== 'string' || !node.position) return null;
  const m = TAG_URL.exec(head);
  if (!m) return null;
  const url = m[1]!;
  const at = (node.position.start.offset ?? 0) + m[0].length - 1 - url.length;
  return source.slice(at, at + url.length) === url ? { at, url } : null;
}

/**
 * Rewrites the destinations of the links, images and link definitions of a markdown text: the text is parsed
 * (GitBook's syntax included) and each node's destination is replaced in place, at the offset the parser gave it,
 * so everything else keeps its bytes; so is the `url` of GitBook's `{% content-ref %}` and `{% embed %}` tags.
 * `map` answers the new URL, or undefined to leave one as it is.
 */
export function rewriteUrls(markdown: string, map: (url: string) => string | undefined): string {
  const { tree, source } = parseMarkdown(markdown);
  const edits: { at: number; length: number; url: string }[] = [];
  visit(tree as Node, (node) => {
    const tag = tagUrlOf(node, source);
    if (tag) {
      const next = map(tag.url);
      if (next !== undefined && next !== tag.url) edits.push({ at: tag.at, length: tag.url.length, url: next });
    }
    if (!hasUrl(node) || !node.position) return;
    const next = map(node.url);
    if (next === undefined || next === node.url) return;
    const start = node.position.start.offset ?? 0;
    const text = source.slice(start, node.position.end.offset ?? start);
    const at = text.lastIndexOf(node.url);
    if (at < 0) return;
    edits.push({ at: start + at, length: node.url.length, url: next });
  });
  edits.sort((a, b) => b.at - a.at);
  let out = source;
  let floor = Number.POSITIVE_INFINITY;
  for (const e of edits) {
    if (e.at + e.length > floor) continue;
    out = out.slice(0, e.at) + e.url + out.slice(e.at + e.length);
    floor = e.at;
  }
  return out;
}

/** `a/b/c.md` relative to the folder of `from` (`a/x.md` → `b/c.md`, `d/y.md` → `../a/b/c.md`). */
export function relativePath(from: string, to: string): string {
  const base = from.split('/').slice(0, -1);
  const target = to.split('/');
  let i = 0;
  while (i < base.length && i < target.length - 1 && base[i] === target[i]) i++;
  const up = base.length - i;
  const rest = target.slice(i).join('/');
  return up === 0 ? rest : `${'../'.repeat(up)}${rest}`;
}

/**
 * The repository path a relative URL of the file at `from` points at, or null when it is not a relative path,
 * or climbs above the repository's root.
 */
export function resolveRelative(from: string, url: string): { path: string; anchor: string } | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/') || url.startsWith('#') || url.startsWith('//'))
    return null;
  const hash = url.indexOf('#');
  const raw = hash < 0 ? url : url.slice(0, hash);
  const anchor = hash < 0 ? '' : url.slice(hash);
  let decoded: string;
  try {
    decoded = decodeURI(raw.split('?')[0]!);
  } catch {
    return null;
  }
  const path = cleanPath(decoded, from.split('/').slice(0, -1));
  return path ? { path, anchor } : null;
}

/**
 * A repository path kept inside the repository, relative to the folder `dir` (the root when omitted):
 * `./a/../b` → `b`; `..` past the top refused (null).
 */
export function cleanPath(path: string, dir: readonly string[] = []): string | null {
  const parts = [...dir];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}
