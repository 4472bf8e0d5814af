import { cursorText, decodeCursor, encodeCursor } from '@quire/kit';
import { z } from 'zod';

/**
 * The word of a query that may also match as a prefix (search as you type): its last word, when it is written
 * plainly — not inside a `"phrase"`, not excluded with `-`, not the `or` operator. PostgreSQL then says whether
 * it stems to one lexeme that ends the parsed query (see `searchStatement` in search.repository.ts).
 */
export function prefixWord(query: string): string | undefined {
  const trimmed = query.trimEnd();
  if (!trimmed) return undefined;
  // An odd number of quotes leaves the end inside a phrase (websearch_to_tsquery closes it).
  if ((trimmed.match(/"/g)?.length ?? 0) % 2 === 1) return undefined;
  const last = trimmed.split(/\s+/).at(-1)!;
  if (last.startsWith('-') || last.endsWith('"') || last.toLowerCase() === 'or') return undefined;
  return last;
}

/** Where a page of results starts: after the result of this score, space and page (the ranked order's key). */
export interface SearchCursor {
  score: number;
  spaceId: string;
  pageId: string;
}

/** The key of a ranked result: a score (never negative) and two ids. */
const SEARCH_KEY = z.tuple([z.number().finite().min(0), cursorText.max(100), cursorText.max(100)]);

export function encodeSearchCursor(c: SearchCursor): string {
  return encodeCursor([c.score, c.spaceId, c.pageId]);
}

/** The cursor of a `page` parameter; 400 for anything that is not one. */
export function decodeSearchCursor(page: string): SearchCursor {
  const [score, spaceId, pageId] = decodeCursor(page, SEARCH_KEY);
  return { score, spaceId, pageId };
}
