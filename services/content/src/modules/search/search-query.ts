import { invalid } from '@quire/kit';

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

export function encodeCursor(c: SearchCursor): string {
  return Buffer.from(JSON.stringify([c.score, c.spaceId, c.pageId])).toString('base64url');
}

/** The cursor of a `page` parameter; 400 for anything that is not one. */
export function decodeCursor(page: string): SearchCursor {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  if (
    Array.isArray(values) &&
    values.length === 3 &&
    typeof values[0] === 'number' &&
    Number.isFinite(values[0]) &&
    values[0] >= 0 &&
    typeof values[1] === 'string' &&
    typeof values[2] === 'string' &&
    values[1].length <= 100 &&
    values[2].length <= 100 &&
    !/[\u0000\ud800-\udfff]/.test(values[1] + values[2])
  ) {
    return { score: values[0], spaceId: values[1], pageId: values[2] };
  }
  throw invalid('Invalid `page`: not a cursor of this list');
}
