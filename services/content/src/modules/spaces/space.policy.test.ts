import { describe, expect, it } from 'vitest';
import type { Actor, Role } from '@quire/contracts';
import { spacePermissions, spaceRole, visibleLevels } from './space.policy.ts';

const member = (role: Role | null): Actor => ({ kind: 'user', userId: 'u', memberships: [{ organization: 'o', role, teams: [] }] });
const space = (defaultLevel: Parameters<typeof spaceRole>[1]['defaultLevel'], collectionLevel?: Parameters<typeof spaceRole>[1]['collectionLevel']) => ({
  organizationId: 'o',
  defaultLevel,
  ...(collectionLevel !== undefined ? { collectionLevel } : {}),
});

describe('spaceRole', () => {
  it('makes organization admins admin everywhere, even on a closed space', () => {
    expect(spaceRole(member('admin'), space(null))).toBe('admin');
    expect(spaceRole(member('admin'), space('read'))).toBe('admin');
  });

  it('gives members their org role when the space inherits', () => {
    expect(spaceRole(member('edit'), space('inherit'))).toBe('edit');
    expect(spaceRole(member('read'), space('inherit'))).toBe('read');
  });

  it('caps or raises a member with the space default level', () => {
    expect(spaceRole(member('edit'), space('read'))).toBe('read');
    expect(spaceRole(member('read'), space('edit'))).toBe('edit');
  });

  it('resolves inherit through the collection, then the organization', () => {
    expect(spaceRole(member('edit'), space('inherit', 'comment'))).toBe('comment');
    expect(spaceRole(member('edit'), space('inherit', 'inherit'))).toBe('edit');
  });

  it('gives nothing to guests, strangers and closed spaces', () => {
    expect(spaceRole(member(null), space('read'))).toBeNull();
    expect(spaceRole({ kind: 'user', userId: 'x', memberships: [] }, space('inherit'))).toBeNull();
    expect(spaceRole(member('edit'), space(null))).toBeNull();
    expect(spaceRole({ kind: 'anonymous' }, space('read'))).toBeNull();
  });

  it('lists with the same rule', () => {
    expect(visibleLevels(member('admin'), 'o')).toBeNull();
    expect(visibleLevels(member(null), 'o')).toBe('none');
    expect(visibleLevels(member('read'), 'o')).not.toContain(null);
  });
});

describe('spacePermissions', () => {
  it('follows the role ladder', () => {
    expect(spacePermissions('read')).toEqual({ view: true, access: true, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false, comment: false, merge: false, review: false });
    expect(spacePermissions('edit')).toMatchObject({ edit: true, comment: true, merge: false, review: false });
    expect(spacePermissions('review')).toMatchObject({ merge: true, review: true, admin: false });
    expect(Object.values(spacePermissions('admin')).every(Boolean)).toBe(true);
    expect(Object.values(spacePermissions(null)).some(Boolean)).toBe(false);
  });
});
