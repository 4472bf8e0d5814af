import { describe, expect, it } from 'vitest';
import { assertStorableInput } from './input-guard.ts';

const message = (input: unknown) => {
  try {
    assertStorableInput(input);
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('assertStorableInput', () => {
  it('lets ordinary input through, unicode included', () => {
    expect(
      message({ title: 'Ünïcødé 📘 עברית', tags: ['a', 'b'], n: 3, nested: { ok: true, list: [{ x: null }] } }),
    ).toBe('ok');
    expect(message(undefined)).toBe('ok');
  });

  it('names the field holding a NUL, in path, query or body values and keys', () => {
    expect(message({ spaceId: 'abc\u0000' })).toBe('Invalid request: spaceId: must not contain NUL characters');
    expect(message({ emails: ['a@b.c', { email: 'x\u0000@y.z' }] })).toBe(
      'Invalid request: emails.1.email: must not contain NUL characters',
    );
    expect(message({ memberships: { 'u\u00001': { role: 'owner' } } })).toBe(
      'Invalid request: memberships.u?1: key must not contain NUL characters',
    );
  });

  it('refuses lone surrogates, which are not storable text', () => {
    expect(message({ title: 'a\ud800b' })).toBe(
      'Invalid request: title: must be valid Unicode text (no lone surrogates)',
    );
    expect(message({ title: '\ud83d\udcd8' })).toBe('ok');
  });

  it('refuses absurd nesting instead of recursing without end', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect(message(deep)).toMatch(/nested deeper than 64 levels/);
  });
});
