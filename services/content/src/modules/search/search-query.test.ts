import { describe, expect, it } from 'vitest';
import { DomainError } from '@quire/kit';
import { decodeSearchCursor, encodeSearchCursor, prefixWord } from './search-query.ts';

describe('prefixWord', () => {
  it.each<[string, string | undefined]>([
    ['install', 'install'],
    ['how to confi', 'confi'],
    ['  trailing spaces   ', 'spaces'],
    ['"quick fox"', undefined],
    ['"unclosed phrase', undefined],
    ['"a phrase" then', 'then'],
    ['deploy -docker', undefined],
    ['docker or', undefined],
    ['docker OR', undefined],
    ['', undefined],
    ['   ', undefined],
  ])('%j → %j', (query, expected) => {
    expect(prefixWord(query)).toBe(expected);
  });
});

describe('search cursors', () => {
  it('round-trips the key of the last result', () => {
    const c = { score: 0.6079271, spaceId: 's1', pageId: 'p1' };
    expect(decodeSearchCursor(encodeSearchCursor(c))).toEqual(c);
  });

  it.each([
    ['not base64 json', 'bm9wZQ'],
    ['a keyset cursor of another list', Buffer.from('["a","b"]').toString('base64url')],
    ['a negative score', Buffer.from('[-1,"s","p"]').toString('base64url')],
    ['a score that is not a number', Buffer.from('["1","s","p"]').toString('base64url')],
    ['an over-long id', Buffer.from(JSON.stringify([1, 's'.repeat(101), 'p'])).toString('base64url')],
    ['a NUL in an id', Buffer.from(JSON.stringify([1, 's\u0000', 'p'])).toString('base64url')],
  ])('refuses %s with a 400', (_name, page) => {
    let error: unknown;
    try {
      decodeSearchCursor(page);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).reason).toBe('invalid_input');
  });
});
