import { describe, expect, it } from 'vitest';
import type { SpaceRevision } from '../api/settings.ts';
import { authorOf, kindOf } from './history-kind.ts';

const user = (displayName: string) => ({ object: 'user', id: displayName, displayName, urls: { location: 'x' } });
const base = {
  object: 'revision',
  id: 'r2',
  parents: ['r1'],
  pages: [],
  files: [],
  reusableContents: [],
  variables: {},
  createdAt: '2026-11-29T10:00:00.000Z',
  type: 'merge',
  urls: { app: 'http://quire.test/o/o/s/s/~/revisions/r2' },
} as unknown as SpaceRevision;
const cr = (number: number, subject: string, mergedBy?: string) =>
  ({ number, subject, createdBy: user('Rita'), ...(mergedBy ? { mergedBy: user(mergedBy) } : {}) }) as never;

describe('kindOf and authorOf', () => {
  it('names a merge by its change request, and its author by who merged it', () => {
    const r = { ...base, mergedFrom: cr(3, 'Install <b>', 'Ann') };
    expect(kindOf(r)).toBe('Merged change request #3: Install <b>');
    expect(authorOf(r)).toBe('Ann');
    expect(kindOf({ ...base, mergedFrom: cr(4, '') })).toBe('Merged change request #4');
    expect(authorOf({ ...base, mergedFrom: cr(4, '') })).toBe('Rita');
  });

  it("names a Git sync by its commit (short) and its message's first line", () => {
    const git = {
      oid: '1a2b3c4d5e6f',
      message: 'Fix typos\n\nDetails',
      createdByGitBook: false,
      url: 'u',
      ref: 'main',
    };
    expect(kindOf({ ...base, git, mergedFrom: cr(5, 'Git sync') })).toBe('Git sync from 1a2b3c4: Fix typos');
  });

  it('names the first revision and an edit outside change requests', () => {
    expect(kindOf({ ...base, type: 'edits', parents: [] })).toBe('Space created');
    expect(kindOf({ ...base, type: 'edits' })).toBe('Edited through the API');
    expect(authorOf({ ...base, type: 'edits' })).toBeUndefined();
    expect(kindOf(base)).toBe('Merged a change request');
  });
});
