import type { Node } from '@quire/document/syntax';
import { visit } from '@quire/document/syntax';
import { parseMarkdown } from '@quire/document/syntax';
import { decodeEntities, gitbookHtmlAttribute, gitbookHtmlText } from '@quire/document/model';

interface UrlNode extends Node {
  url: string;
}

const hasUrl = (node: Node): node is UrlNode => typeof (node as Partial<UrlNode>).url === 'string';

/**
 * The `url="…"` of GitBook's `{% content-ref %}` and `{% embed %}` tags and the `src="…"` of its `{% file %}`,
 * `{% drawing %}`, `{% openapi %}` and `{% swagger %}` tags (a block's opening tag, or a lone tag).
 */
const TAG_URL =
  /^\{%-?\s*(?:(?:content-ref|embed)\s[^%]*?\burl|(?:file|drawing|openapi|swagger)\s[^%]*?\bsrc)="([^"]*)"/;

/** The path of GitBook's `{% include "../.gitbook/includes/note.md" %}` (a reusable content's file). */
const INCLUDE_PATH = /^\{%-?\s*include\s+"([^"]*)"/;

/** Where a tag's URL sits in the source (its offset), the URL, and whether it is an include's path. */
function tagUrlOf(node: Node, source: string): { at: number; url: string; include: boolean } | null {
  const tag = node as Node & { open?: unknown; value?: unknown };
  const head = node.type === 'tagBlock' ? tag.open : node.type === 'liquidTag' ? tag.value : undefined;
  if (typeof head !== 'string' || !node.position) return null;
  const include = INCLUDE_PATH.exec(head);
  const m = include ?? TAG_URL.exec(head);
  if (!m) return null;
  const url = m[1]!;
  const at = (node.position.start.offset ?? 0) + m[0].length - 1 - url.length;
  return source.slice(at, at + url.length) === url ? { at, url, include: !!include } : null;
}

/** The `src`, `srcset` and `href` attributes of raw HTML (GitBook's figures, pictures, cards, buttons). */
const HTML_URL = /\s(?:src|srcset|href)="([^"]*)"/gi;

/** Where each URL of an HTML node's attributes sits in the source, and the URL (entities decoded). */
function htmlUrlsOf(node: Node, source: string): { at: number; length: number; url: string }[] {
  if (node.type !== 'html' || !node.position) return [];
  const start = node.position.start.offset ?? 0;
  const text = source.slice(start, node.position.end.offset ?? start);
  return [...text.matchAll(HTML_URL)].map((m) => {
    const raw = m[1]!;
    const at = start + m.index + m[0].length - 1 - raw.length;
    return { at, length: raw.length, url: decodeHtml(raw) };
  });
}

const decodeHtml = decodeEntities;

/** A link whose text is its URL (GitBook's table cells: `<a href="setup.md">setup.md</a>`). */
const SELF_LINK = /<a href="([^"<>]*)">([^<]*)<\/a>/g;

/** Where the text of each link whose text is its URL sits in an HTML node's source, and the URL. */
function selfLinkTextsOf(node: Node, source: string): { at: number; length: number; url: string }[] {
  if (node.type !== 'html' || !node.position) return [];
  const start = node.position.start.offset ?? 0;
  const text = source.slice(start, node.position.end.offset ?? start);
  return [...text.matchAll(SELF_LINK)].flatMap((m) => {
    const url = decodeHtml(m[1]!);
    if (!url || decodeHtml(m[2]!) !== url) return [];
    return [{ at: start + m.index + m[0].length - '</a>'.length - m[2]!.length, length: m[2]!.length, url }];
  });
}

/**
 * Where a URL is written: a markdown destination, a GitBook tag's attribute, an HTML attribute, or the path of an
 * `{% include %}` (a reusable content's file, or its id once read).
 */
export type UrlPlace = 'markdown' | 'tag' | 'html' | 'include';

/**
 * Rewrites the destinations of the links, images and link definitions of a markdown text: the text is parsed
 * (GitBook's syntax included) and each node's destination is replaced in place, at the offset the parser gave it,
 * so everything else keeps its bytes; so is the `url`/`src` of GitBook's `{% content-ref %}`, `{% embed %}`,
 * `{% file %}` and `{% drawing %}` tags, the path of `{% include %}` (place `include`), and the `src`, `srcset` and
 * `href` of raw HTML (GitBook's `<figure>`, `<picture>`, cards and buttons) — with the text of a link that is its
 * URL (`<a href="setup.md">setup.md</a>`, as GitBook writes a table's cells). `map` answers the new URL as it is to
 * be written there (see `writeUrl`), or undefined to leave one as it is.
 */
export function rewriteUrls(markdown: string, map: (url: string, place: UrlPlace) => string | undefined): string {
  const { tree, source } = parseMarkdown(markdown);
  const edits: { at: number; length: number; url: string }[] = [];
  const edit = (at: number, length: number, url: string, place: UrlPlace) => {
    const next = map(url, place);
    if (next !== undefined && next !== source.slice(at, at + length)) edits.push({ at, length, url: next });
  };
  visit(tree as Node, (node) => {
    const tag = tagUrlOf(node, source);
    if (tag) edit(tag.at, tag.url.length, tag.url, tag.include ? 'include' : 'tag');
    for (const h of htmlUrlsOf(node, source)) edit(h.at, h.length, h.url, 'html');
    // a link's text that is its URL follows it, as HTML text
    for (const h of selfLinkTextsOf(node, source)) {
      const next = map(h.url, 'html');
      if (next !== undefined) edits.push({ at: h.at, length: h.length, url: gitbookHtmlText(decodeHtml(next)) });
    }
    if (!hasUrl(node) || !node.position) return;
    const start = node.position.start.offset ?? 0;
    const text = source.slice(start, node.position.end.offset ?? start);
    const at = text.lastIndexOf(node.url);
    if (at < 0) return;
    // a destination written `<…>` is replaced with its brackets (the new one may need them, or not)
    const bracketed = text[at - 1] === '<' && text[at + node.url.length] === '>';
    if (bracketed) edit(start + at - 1, node.url.length + 2, node.url, 'markdown');
    else edit(start + at, node.url.length, node.url, 'markdown');
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

/**
 * A repository path written where `place` says, as GitBook writes it: as it is in tags and HTML attributes (`&` and
 * `"` as GitBook's `&#x26;` and `&#x22;` in HTML), in `<…>` as a markdown destination when it holds spaces or
 * parentheses.
 */
export function writeUrl(path: string, place: UrlPlace): string {
  if (place === 'html') return gitbookHtmlAttribute(path);
  if (place === 'tag' || place === 'include') return path.replace(/"/g, '%22');
  if (/[<>\n]/.test(path)) return encodeURI(path);
  return /[\s()]/.test(path) ? `<${path}>` : path;
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
