import { describe, expect, it } from 'vitest';
import type { Role } from '@quire/contracts';
import { userActor } from '@quire/kit/testing';
import { customFontPolicy } from './custom-font.policy.ts';

const member = (role: Role | null) => userActor('u1', [{ organization: 'org1', role }]);
const facts = { organizationId: 'org1' };

describe('customFontPolicy', () => {
  it.each([
    ['admin', true, true],
    ['create', true, false],
    ['read', true, false],
  ] as const)('%s: view %s, edit %s', (role, view, edit) => {
    expect(customFontPolicy.allows(member(role), facts, 'view')).toBe(view);
    expect(customFontPolicy.allows(member(role), facts, 'edit')).toBe(edit);
    expect(customFontPolicy.permissions(customFontPolicy.role(member(role), facts))).toEqual({ edit });
  });

  it('refuses guests (403) and hides the fonts from outsiders (404)', () => {
    expect(() => customFontPolicy.assert(member(null), facts, 'view')).toThrow(/`read` role/);
    expect(() => customFontPolicy.assert(member('admin'), { organizationId: 'org2' }, 'view')).toThrow(/not found/);
  });
});
