import { describe, expect, it } from 'vitest';
import type { Actor } from '@quire/contracts';
import { userActor } from '@quire/kit/testing';
import { userPolicy } from './user.policy.ts';

const bob = { userId: 'bob', organizations: ['acme'] };
const reader = (organization: string): Actor => ({
  kind: 'reader',
  reader: { site: 's', organization, siteSpaces: [], claims: {} },
});

describe('user policy', () => {
  it.each([
    ['itself, even as a guest', userActor('bob', [{ organization: 'acme', role: null }]), 'read'],
    ['a member of a shared organization', userActor('ann', [{ organization: 'acme', role: 'read' }]), 'read'],
    ['a guest of a shared organization', userActor('gary', [{ organization: 'acme', role: null }]), null],
    ['a member of another organization', userActor('olga', [{ organization: 'other', role: 'admin' }]), null],
    ["a reader of a site of the user's organization", reader('acme'), 'guest'],
    ['a reader of another organization', reader('other'), null],
    ['the instance admin', { kind: 'instance-admin' } as Actor, null],
  ] as const)('%s: %s', (_, actor, level) => {
    expect(userPolicy.role(actor, bob)).toBe(level);
    if (level) expect(userPolicy.permissions(level).email).toBe(level === 'read');
  });
});
