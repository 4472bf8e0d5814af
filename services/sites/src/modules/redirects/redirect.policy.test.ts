import { describe, expect, it } from 'vitest';
import { userActor, outcomeOf } from '@quire/kit/testing';
import { publishingAuthPolicy } from '../publishing-auth/publishing-auth.policy.ts';
import { redirectPolicy } from './redirect.policy.ts';

const site = { organizationId: 'o1' };
const as = (role: 'admin' | 'create' | 'edit' | 'read' | null) =>
  userActor(`u-${role}`, [{ organization: 'o1', role }]);

describe('redirect and publishing-auth policies', () => {
  it.each([
    ['admin', 'ok', 'ok', 'ok'],
    ['create', 'ok', 'ok', 'ok'],
    ['edit', 'ok', 'forbidden', 'forbidden'],
    ['read', 'ok', 'forbidden', 'forbidden'],
    [null, 'not_found', 'not_found', 'not_found'],
  ] as const)('%s: view redirects %s, manage redirects %s, publishing auth %s', (role, view, manage, auth) => {
    expect(outcomeOf(() => redirectPolicy.assert(as(role), site, 'view'))).toBe(view);
    expect(outcomeOf(() => redirectPolicy.assert(as(role), site, 'manage'))).toBe(manage);
    expect(outcomeOf(() => publishingAuthPolicy.assert(as(role), site, 'view'))).toBe(auth);
    expect(outcomeOf(() => publishingAuthPolicy.assert(as(role), site, 'update'))).toBe(auth);
  });

  it('hides both from another organization (404)', () => {
    const stranger = userActor('s', [{ organization: 'o2', role: 'admin' }]);
    expect(outcomeOf(() => redirectPolicy.assert(stranger, site, 'view'))).toBe('not_found');
    expect(outcomeOf(() => publishingAuthPolicy.assert(stranger, site, 'view'))).toBe('not_found');
  });
});
