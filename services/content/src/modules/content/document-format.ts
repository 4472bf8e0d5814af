import { LRUCache } from 'lru-cache';
import type { JSONDocument } from '@quire/contracts';
import { evaluateDocument, type Evaluation } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { documentToMarkdown, markdownToDocument } from '@quire/document/model';
import { parseSettingsOf, textParser } from '../parsing/text-parser.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import type { PageRecord } from '../revisions/revision-tree.ts';

type JsonDocument = Record<string, unknown>;

/** Frozen all the way down: a cached document is shared by every answer that presents it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Converted documents by content hash (a document never changes: its hash is its markdown), so `format=document`
 * costs a conversion once per document, not once per read. Bounded by the size of their markdown (a JSON document
 * takes a few times its markdown in memory): 8 M characters, about 30 MB; a document above 256 K characters is not kept.
 */
const MAX_CHARS = 8 * 1024 * 1024;
const converted = new LRUCache<string, { document: JsonDocument; chars: number }>({
  maxSize: MAX_CHARS,
  maxEntrySize: MAX_CHARS / 32,
  sizeCalculation: (e) => Math.max(1, e.chars),
});

/** The JSON document of a page's markdown, converted unless it is kept (then its markdown is not read). */
async function documentOf(ctx: Pick<ContentContext, 'em' | 'config'>, hash: string | null): Promise<JsonDocument> {
  const key = hash ?? '';
  const known = converted.get(key);
  if (known) return known.document;
  const markdown = hash ? await documentRepository.get(ctx.em, hash) : '';
  const document = deepFreeze(
    (await textParser(parseSettingsOf(ctx.config))
      .session()
      .run({ kind: 'toDocument', markdown }, 'format')) as unknown as JsonDocument,
  );
  converted.set(key, { document, chars: markdown.length });
  return document;
}

/**
 * The JSON document of a stored markdown, by its hash, converted on this thread unless kept: what the published
 * pages read and what search indexes after a merge share one conversion of a new document (both ran within a
 * few milliseconds of each other, each converting it).
 */
export function storedDocument(hash: string, markdown: string): JSONDocument {
  const known = converted.get(hash);
  if (known) return known.document as unknown as JSONDocument;
  const document = deepFreeze(markdownToDocument(markdown));
  converted.set(hash, { document: document as unknown as JsonDocument, chars: markdown.length });
  return document;
}

/**
 * A page's document in the format asked: `{markdown}`, or GitBook's JSON document `{document}` (converted from the
 * stored markdown on the parsing threads, bounded in time and memory like a write: see text-parser.ts; then kept
 * per content hash). With an `evaluation` (a reader's, or `evaluated`), in both formats, the conditional blocks it
 * decides are gone: their content too when the condition does not hold; the markdown is then written from the
 * evaluated document, never the stored one.
 */
export async function pageDocument(
  ctx: Pick<ContentContext, 'em' | 'config'>,
  page: PageRecord,
  format: 'markdown' | 'document' | undefined,
  evaluation: Evaluation | null = null,
): Promise<{ markdown: string } | { document: JsonDocument } | undefined> {
  if (!format || page.kind !== 'document') return undefined;
  if (evaluation) {
    const stored = await documentOf(ctx, page.documentHash);
    const document = evaluateDocument(stored, evaluation);
    if (format === 'document') return { document };
    if (document !== stored) return { markdown: documentToMarkdown(document as unknown as JSONDocument) };
  }
  if (format === 'document') return { document: await documentOf(ctx, page.documentHash) };
  return { markdown: page.documentHash ? await documentRepository.get(ctx.em, page.documentHash) : '' };
}
