import type { z } from 'zod';

/**
 * Limits on user text that every parser of the platform relies on, checked by the contracts' validation (a
 * 400 naming the field) in one linear pass, before any parser runs. Parsers still run with a bound on time
 * and memory (the content service's parsing pool); these limits refuse early, and cheaply, the shapes known
 * to make parsers recurse or backtrack: deep nesting and long runs of open brackets.
 */
export const TEXT_LIMITS = {
  /** Most nested block containers in a markdown document (block quotes, list items, `{% … %}` blocks). */
  markdownNesting: 100,
  /** Most `[` open at once within a paragraph of markdown (links and images nest through them). */
  markdownBrackets: 100,
  /** Most nested objects and arrays in a JSON document. */
  jsonNesting: 200,
  /** Most words a search query may hold (its length is capped by `SEARCH_QUERY_MAX`). */
  searchQueryTerms: 32,
} as const;

/** GitBook's block tags that open a container closed by `{% end<name> %}`. */
const BLOCK_TAGS = new Set([
  'hint',
  'tabs',
  'tab',
  'stepper',
  'step',
  'code',
  'columns',
  'column',
  'content-ref',
  'swagger',
  'openapi',
  'updates',
  'update',
]);
const TAG_LINE = /^ {0,3}\{%\s*(end)?([a-z][a-z-]*)/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Nesting of one line's prefix: `>` and list markers, and two columns of indentation, each count one. */
function prefixDepth(line: string): number {
  let depth = 0;
  let spaces = 0;
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (c === 32) spaces++;
    else if (c === 9) spaces += 4;
    else if (c === 62 /* > */) depth++;
    else if ((c === 45 || c === 42 || c === 43) && (line.charCodeAt(i + 1) === 32 || line.charCodeAt(i + 1) === 9))
      depth++;
    else break;
    i++;
  }
  return depth + (spaces >> 1);
}

export interface MarkdownShape {
  /** The deepest nesting of block containers found (see `TEXT_LIMITS.markdownNesting`). */
  nesting: number;
  /** The most `[` open at once in one paragraph. */
  brackets: number;
}

/**
 * How deeply a markdown text nests, in one pass over its characters (fenced code is skipped). An estimate
 * that errs on the high side (two spaces of indentation count as a level); real documents stay far below
 * the limits. Stops counting once both limits are passed.
 */
export function markdownShape(text: string, limits = TEXT_LIMITS): MarkdownShape {
  let nesting = 0;
  let brackets = 0;
  let tags = 0;
  let open = 0;
  let fence: string | undefined;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    const fenced = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenced && fenced[1]!.startsWith(fence)) fence = undefined;
      continue;
    }
    if (fenced) {
      fence = fenced[1]!;
      continue;
    }
    const tag = TAG_LINE.exec(line);
    if (tag && BLOCK_TAGS.has(tag[2]!.toLowerCase())) tags = Math.max(0, tags + (tag[1] ? -1 : 1));
    nesting = Math.max(nesting, prefixDepth(line) + tags);
    if (!line.trim()) open = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 92 /* \ */) i++;
      else if (c === 91 /* [ */) brackets = Math.max(brackets, ++open);
      else if (c === 93 /* ] */ && open > 0) open--;
    }
    if (nesting > limits.markdownNesting && brackets > limits.markdownBrackets) break;
  }
  return { nesting, brackets };
}

/** How deeply a JSON value nests (objects and arrays), iteratively; stops past `max`. */
export function jsonDepth(value: unknown, max = TEXT_LIMITS.jsonNesting): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > max) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

/** The words of a text (runs of non-space characters), counted without splitting it. */
export function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = /\s/.test(text[i]!);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

type Issues = Pick<z.core.$RefinementCtx, 'addIssue'>;

/** Adds the issue of a markdown text that nests past the limits (path: the field). */
export function checkMarkdown(text: string, path: PropertyKey[], ctx: Issues): void {
  const shape = markdownShape(text);
  if (shape.nesting > TEXT_LIMITS.markdownNesting) {
    ctx.addIssue({
      code: 'custom',
      path: path as (string | number)[],
      message: `nests more than ${TEXT_LIMITS.markdownNesting} levels of block quotes, lists or blocks`,
    });
  } else if (shape.brackets > TEXT_LIMITS.markdownBrackets) {
    ctx.addIssue({
      code: 'custom',
      path: path as (string | number)[],
      message: `has more than ${TEXT_LIMITS.markdownBrackets} \`[\` open at once`,
    });
  }
}

/** Adds the issue of a JSON document that nests past `TEXT_LIMITS.jsonNesting` (path: the field). */
export function checkJsonDepth(value: unknown, path: PropertyKey[], ctx: Issues): void {
  if (jsonDepth(value) > TEXT_LIMITS.jsonNesting) {
    ctx.addIssue({
      code: 'custom',
      path: path as (string | number)[],
      message: `nests more than ${TEXT_LIMITS.jsonNesting} levels`,
    });
  }
}

/**
 * The document of a page given to a content change (`{markdown}` or `{document}`): its nesting checked.
 * Used as a refinement of each change of a content write.
 */
export function checkDocumentInput(document: unknown, path: PropertyKey[], ctx: Issues): void {
  if (!document || typeof document !== 'object') return;
  const d = document as { markdown?: unknown; document?: unknown };
  if (typeof d.markdown === 'string') checkMarkdown(d.markdown, [...path, 'markdown'], ctx);
  if (d.document !== undefined) checkJsonDepth(d.document, [...path, 'document'], ctx);
}
