import { parse as parseYaml } from 'yaml';
import { documentToMarkdown, markdownToDocument, normalizeMarkdown } from '@quire/document/model';
import { resolveBatchRefs } from '../links/link-rewriting.ts';
import type { OpenAPIFetchLimits, OpenAPISourceInput } from '../openapi/openapi-document.ts';
import type { ContentChange } from '@quire/contracts';
import type { OpenAPIResult } from './openapi-task.ts';
import type { CrawledImage, CrawledSite } from '../import/website-crawler.ts';

/**
 * The parses of user text the content service runs, as plain functions of plain data: run in the parsing
 * threads (parse.worker.ts) for anything but small inputs, or inline (see text-parser.ts). Failures a user must
 * fix are results, not throws (an error crossing a thread keeps its message only).
 */

/** A page's markdown as written: its frontmatter read (YAML), its leading `# heading` taken as the title. */
export type MarkdownPage =
  | { body: string; meta: Record<string, unknown>; heading: string | undefined }
  | { error: string };

export function readMarkdownPage(markdown: string): MarkdownPage {
  let body = markdown;
  let meta: Record<string, unknown> = {};
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (front) {
    try {
      const parsed: unknown = parseYaml(front[1]!, { maxAliasCount: 100 });
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
    } catch {
      return { error: 'the frontmatter is not valid YAML' };
    }
    body = body.slice(front[0].length);
  }
  const heading = /^\s*#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/.exec(body);
  if (heading) body = body.slice(heading[0].length);
  return { body, meta, heading: heading?.[1] };
}

/** GitBook's JSON document as markdown, or why it is not a document this platform reads. */
export function jsonDocumentToMarkdown(document: unknown): { markdown: string } | { error: string } {
  try {
    return { markdown: documentToMarkdown(document as never) };
  } catch (err) {
    if (isStackOverflow(err)) throw err;
    return { error: (err as Error).message };
  }
}

/**
 * What the local references of a batch stand for, as plain data (it crosses to the threads): `./<ref>.md#a` is
 * the page `pages[ref]`, `./<ref>` the file `files[ref]` (file ids).
 */
export interface BatchRefs {
  pages: Record<string, string>;
  files: Record<string, string>;
}

const own = (map: Record<string, string>, key: string) => (Object.hasOwn(map, key) ? map[key] : undefined);

/**
 * The markdown of a page written in a batch, normalised, once its references to the batch's pages and files are
 * resolved (`./<ref>.md#anchor` → `/pages/<id>#anchor`, `./<ref>` → the file): on the document, so links,
 * images, content-refs, cards and buttons are resolved, and code or plain text never (see link-rewriting.ts).
 */
export function normalizeBatchMarkdown(markdown: string, refs?: BatchRefs): string {
  if (!refs) return normalizeMarkdown(markdown);
  return resolveBatchRefs(markdown, { page: (ref) => own(refs.pages, ref), file: (ref) => own(refs.files, ref) });
}

/** A crawled site as it crosses to a thread: its scope as data, its images without their bytes. */
export interface SiteToPlan extends Omit<CrawledSite, 'scope' | 'images'> {
  scope: { origin: string; folder: string };
  images: ReadonlyMap<string, Omit<CrawledImage, 'bytes'>>;
}

/** The changes importing a crawled site (see `planImport`); the bytes of its images stay with the caller. */
export async function planSiteImport(site: SiteToPlan, topSlugs: string[]): Promise<ContentChange[]> {
  // Loaded on first use: a thread that never converts HTML starts without cheerio and turndown.
  const [{ planImport }, { siteScope }] = await Promise.all([
    import('../import/import-plan.ts'),
    import('../import/site-scope.ts'),
  ]);
  const images = new Map([...site.images].map(([url, image]) => [url, { ...image, bytes: Buffer.alloc(0) }]));
  const scope = siteScope(`${site.scope.origin}${site.scope.folder}/`);
  return planImport({ ...site, scope, images }, new Set(topSlugs)).changes;
}

export type ParseTask =
  | { kind: 'markdownPage'; markdown: string }
  | { kind: 'jsonDocument'; document: unknown }
  | { kind: 'normalize'; markdown: string; refs?: BatchRefs }
  | { kind: 'toDocument'; markdown: string }
  | { kind: 'openapi'; source: OpenAPISourceInput; limits: OpenAPIFetchLimits }
  | { kind: 'importPlan'; site: SiteToPlan; topSlugs: string[] };

export interface ParseResults {
  markdownPage: MarkdownPage;
  jsonDocument: { markdown: string } | { error: string };
  normalize: string;
  toDocument: ReturnType<typeof markdownToDocument>;
  openapi: OpenAPIResult;
  importPlan: ContentChange[];
}

export type TaskOf<K extends ParseTask['kind']> = Extract<ParseTask, { kind: K }>;

/** Runs one task (in whichever thread calls it). */
export function runParseTask(
  task: ParseTask,
): ParseResults[ParseTask['kind']] | Promise<ParseResults[ParseTask['kind']]> {
  switch (task.kind) {
    case 'markdownPage':
      return readMarkdownPage(task.markdown);
    case 'jsonDocument':
      return jsonDocumentToMarkdown(task.document);
    case 'normalize':
      return normalizeBatchMarkdown(task.markdown, task.refs);
    case 'toDocument':
      return markdownToDocument(task.markdown);
    case 'openapi':
      return import('./openapi-task.ts').then(({ readOpenAPI }) => readOpenAPI(task.source, task.limits));
    case 'importPlan':
      return planSiteImport(task.site, task.topSlugs);
  }
}

/** The error of a parser that recursed past the thread's stack. */
export function isStackOverflow(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === 'RangeError' || err.constructor?.name === 'RangeError') &&
    /call stack/i.test(err.message)
  );
}

/** The characters of user text a task carries (what decides whether it runs inline). */
export function sizeOf(task: ParseTask): number {
  switch (task.kind) {
    case 'markdownPage':
    case 'normalize':
    case 'toDocument':
      return task.markdown.length;
    case 'jsonDocument':
      return Number.POSITIVE_INFINITY;
    case 'openapi':
    case 'importPlan':
      return Number.POSITIVE_INFINITY;
  }
}
