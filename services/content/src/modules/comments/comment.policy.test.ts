import { describe, expect, it } from 'vitest';
import type { Role } from '@quire/contracts';
import { userActor } from '@quire/kit/testing';
import { commentAllows, commentPermissions, commentPolicy, type CommentAction } from './comment.policy.ts';

const actor = userActor('u1', [{ organization: 'org1', role: 'read' }]);
const ladder: Role[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

describe('the comment permission table', () => {
  // Action → the weakest space role allowed, for an author and for someone else (null: never).
  const table: [CommentAction, Role | null, Role | null][] = [
    ['view', 'read', 'read'],
    ['post', 'comment', 'comment'],
    ['reply', 'comment', 'comment'],
    ['react', 'comment', 'comment'],
    ['resolve', 'comment', 'comment'],
    ['edit', 'comment', null],
    ['delete', 'comment', 'admin'],
    ['deleteAny', 'admin', 'admin'],
  ];
  it('declares every action', () =>
    expect(table.map(([a]) => a).sort()).toEqual(Object.keys(commentPolicy.actions).sort()));

  it.each(table)('%s needs %s (author) / %s (others)', (action, asAuthor, asOther) => {
    for (const level of ladder) {
      const expected = (min: Role | null) => min !== null && ladder.indexOf(level) >= ladder.indexOf(min);
      expect(commentAllows(actor, { level, author: true }, action), `${level} author`).toBe(expected(asAuthor));
      expect(commentAllows(actor, { level, author: false }, action), `${level} other`).toBe(expected(asOther));
    }
  });

  it.each<[Role | null, boolean, ReturnType<typeof commentPermissions>]>([
    ['read', true, { view: true, edit: false, reply: false, delete: false }],
    ['comment', true, { view: true, edit: true, reply: true, delete: true }],
    ['edit', false, { view: true, edit: false, reply: true, delete: false }],
    ['admin', false, { view: true, edit: false, reply: true, delete: true }],
    [null, false, { view: false, edit: false, reply: false, delete: false }],
  ])('computes the permissions object: %s, author %s', (level, author, expected) => {
    expect(commentPermissions(actor, { level, author })).toEqual(expected);
  });
});
