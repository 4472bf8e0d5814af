import { describe, expect, it } from 'vitest';
import type { Actor } from '@quire/contracts';
import { definePolicy } from './define-policy.ts';
import { organizationLevel } from './roles.ts';

const member = (role: 'admin' | 'edit' | 'read' | null): Actor => ({
  kind: 'user',
  userId: 'u',
  memberships: [{ organization: 'o', role, teams: [] }],
});
const outsider: Actor = { kind: 'user', userId: 'x', memberships: [] };

const notes = definePolicy({
  resource: 'Note',
  role: (actor: Actor, facts: { organizationId: string }) => organizationLevel(actor, facts.organizationId),
  actions: { read: 'guest', write: 'edit', destroy: 'admin' },
  describe: { write: 'Writing the note' },
  refusals: { destroy: 'Only admins destroy notes' },
  permissions: { view: 'guest', edit: 'edit', admin: 'admin' },
});
const facts = { organizationId: 'o' };

describe('definePolicy', () => {
  it('answers 404 when the resource is not visible, 403 below the action level, the level otherwise', () => {
    expect(() => notes.assert(outsider, facts, 'read')).toThrow(
      expect.objectContaining({ reason: 'not_found', message: 'Note not found' }),
    );
    expect(notes.assert(member(null), facts, 'read')).toBe('guest');
    expect(() => notes.assert(member('read'), facts, 'write')).toThrow(
      expect.objectContaining({ reason: 'forbidden', message: 'Writing the note needs the `edit` role on the note' }),
    );
    expect(notes.assert(member('edit'), facts, 'write')).toBe('edit');
    expect(() => notes.assert(member('edit'), facts, 'destroy')).toThrow(
      expect.objectContaining({ message: 'Only admins destroy notes' }),
    );
    expect(notes.allows(member('admin'), facts, 'destroy')).toBe(true);
    expect(notes.allows(outsider, facts, 'read')).toBe(false);
  });

  it('computes the permissions object from the same levels', () => {
    expect(notes.permissions(null)).toEqual({ view: false, edit: false, admin: false });
    expect(notes.permissions('guest')).toEqual({ view: true, edit: false, admin: false });
    expect(notes.permissions('edit')).toEqual({ view: true, edit: true, admin: false });
    expect(notes.permissions('admin')).toEqual({ view: true, edit: true, admin: true });
  });
});
