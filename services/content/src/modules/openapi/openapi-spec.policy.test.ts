import { describe, expect, it } from 'vitest';
import type { Actor, Role } from '@quire/contracts';
import { userActor } from '@quire/kit/testing';
import { openAPISpecPolicy } from './openapi-spec.policy.ts';

const spec = { organizationId: 'org1' };
const as = (role: Role | null) => userActor('u', [{ organization: 'org1', role }]);

describe('openAPISpecPolicy', () => {
  it.each([
    ['admin', { view: true, create: true, update: true, delete: true }, { view: true, edit: true }],
    ['create', { view: true, create: true, update: true, delete: true }, { view: true, edit: true }],
    ['review', { view: true, create: false, update: false, delete: false }, { view: true, edit: false }],
    ['edit', { view: true, create: false, update: false, delete: false }, { view: true, edit: false }],
    ['read', { view: true, create: false, update: false, delete: false }, { view: true, edit: false }],
    [null, { view: false, create: false, update: false, delete: false }, { view: false, edit: false }],
  ] as const)('role %s', (role, actions, permissions) => {
    const actor = as(role);
    for (const [action, allowed] of Object.entries(actions))
      expect(openAPISpecPolicy.allows(actor, spec, action as keyof typeof actions), action).toBe(allowed);
    expect(openAPISpecPolicy.permissions(openAPISpecPolicy.role(actor, spec))).toEqual(permissions);
  });

  it('answers 403 to guests and 404 to outsiders', () => {
    expect(() => openAPISpecPolicy.assert(as(null), spec, 'view')).toThrow(
      expect.objectContaining({ reason: 'forbidden' }),
    );
    expect(() => openAPISpecPolicy.assert(as('read'), spec, 'create')).toThrow(
      'Creating an OpenAPI specification needs the `create` role in the organization',
    );
    expect(() =>
      openAPISpecPolicy.assert(userActor('x', [{ organization: 'org2', role: 'admin' }]), spec, 'view'),
    ).toThrow(expect.objectContaining({ reason: 'not_found' }));
  });

  it("lets a site's reader view a specification of its organization that its site shows, nothing more", () => {
    const reader = (organization: string): Actor => ({
      kind: 'reader',
      reader: { site: 's', organization, siteSpaces: [{ id: 'ss', space: 'sp' }], claims: { unsigned: {} } },
    });
    expect(openAPISpecPolicy.allows(reader('org1'), { ...spec, usedBySite: true }, 'view')).toBe(true);
    expect(openAPISpecPolicy.allows(reader('org1'), { ...spec, usedBySite: true }, 'update')).toBe(false);
    for (const [actor, facts] of [
      [reader('org1'), { ...spec, usedBySite: false }],
      [reader('org1'), spec],
      [reader('org2'), { ...spec, usedBySite: true }],
    ] as const)
      expect(() => openAPISpecPolicy.assert(actor, facts, 'view')).toThrow(
        expect.objectContaining({ reason: 'not_found' }),
      );
  });
});
