import { describe, expect, it } from 'vitest';
import { highestRole, membershipOf, roleAtLeast } from './roles.ts';

describe('role ladder', () => {
  it('orders admin > create > review > edit > comment > read > guest > none', () => {
    expect(roleAtLeast('admin', 'create')).toBe(true);
    expect(roleAtLeast('review', 'edit')).toBe(true);
    expect(roleAtLeast('edit', 'review')).toBe(false);
    expect(roleAtLeast('read', 'read')).toBe(true);
    expect(roleAtLeast(null, 'read')).toBe(false);
    expect(roleAtLeast('guest', 'read')).toBe(false);
    expect(roleAtLeast('read', 'guest')).toBe(true);
    expect(roleAtLeast(null, 'guest')).toBe(false);
  });

  it('picks the highest role, null only when there is none', () => {
    expect(highestRole(['read', null, 'review', 'edit'])).toBe('review');
    expect(highestRole([null, 'comment'])).toBe('comment');
    expect(highestRole([null, null])).toBeNull();
    expect(highestRole([])).toBeNull();
  });

  it('finds the membership of a user actor only', () => {
    const actor = { kind: 'user' as const, userId: 'u', memberships: [{ organization: 'o', role: null, teams: [] }] };
    expect(membershipOf(actor, 'o')?.role).toBeNull();
    expect(membershipOf(actor, 'p')).toBeUndefined();
    expect(membershipOf({ kind: 'instance-admin' }, 'o')).toBeUndefined();
  });
});
