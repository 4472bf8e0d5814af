import { describe, expect, it } from 'vitest';
import type { Actor } from '@quire/contracts';
import { userActor } from '@quire/kit/testing';
import { sessionPolicy } from './session.policy.ts';

const bobs = { userId: 'bob' };

describe('session policy', () => {
  it.each([
    ['its user, signed in (a session)', { ...userActor('bob', []), sessionId: 's1' }, true],
    [
      'its user, with an API token',
      { ...userActor('bob', [{ organization: 'acme', role: 'read' }]), tokenId: 't' },
      true,
    ],
    ['an admin of an organization of its user', userActor('ann', [{ organization: 'acme', role: 'admin' }]), false],
    ['the instance admin', { kind: 'instance-admin' } as Actor, false],
    ['an anonymous caller', { kind: 'anonymous' } as Actor, false],
  ] as const)('%s: sees and ends it: %s', (_, actor, allowed) => {
    expect(sessionPolicy.allows(actor, bobs, 'list')).toBe(allowed);
    expect(sessionPolicy.allows(actor, bobs, 'revoke')).toBe(allowed);
    if (!allowed) expect(() => sessionPolicy.assert(actor, bobs, 'revoke')).toThrow('Session not found');
  });
});
