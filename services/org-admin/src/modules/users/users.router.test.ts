import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { failureOf } from '@quire/kit/testing';
import { seedOrganization, useOrgAdminAndContent } from '../../test-support.ts';

const p = useOrgAdminAndContent('users');
const get = (userId: string, as: Actor) => p.orgAdmin.call(ops.getUserById, { userId }, as);
const reason = async (call: Promise<unknown>) => (await failureOf(call)).reason;
const readerOf = (organization: string): Actor => ({
  kind: 'reader',
  reader: { site: 'site1', organization, siteSpaces: [], claims: { unsigned: {} } },
});

describe('getUserById', () => {
  it("answers GitBook's User to members sharing an organization, and to the user itself", async () => {
    const { admin, users } = await seedOrganization(p.orgAdmin, { bob: 'read', gary: null });
    expect(await get(users.bob.id, admin.actor)).toEqual({
      object: 'user',
      id: users.bob.id,
      displayName: 'Bob',
      email: users.bob.email,
      urls: { location: expect.stringMatching(new RegExp(`/v1/users/${users.bob.id}$`)) },
    });
    expect(await get(admin.id, users.bob.actor)).toMatchObject({ displayName: 'Ada Admin', email: admin.email });
    // A guest reads itself, and no one else: it cannot list the members either.
    expect(await get(users.gary.id, users.gary.actor)).toMatchObject({ email: users.gary.email });
    expect(await reason(get(admin.id, users.gary.actor))).toBe('not_found');
  });

  it('answers 404 for a user of another organization and for an unknown user, alike', async () => {
    const acme = await seedOrganization(p.orgAdmin, {});
    const other = await seedOrganization(p.orgAdmin, {});
    expect(await reason(get(other.admin.id, acme.admin.actor))).toBe('not_found');
    expect(await reason(get('nobody', acme.admin.actor))).toBe('not_found');
  });

  it("gives a site's reader the members of the site's organization, without their e-mail", async () => {
    const acme = await seedOrganization(p.orgAdmin, { bob: 'edit' });
    const other = await seedOrganization(p.orgAdmin, {});
    const bob = await get(acme.users.bob.id, readerOf(acme.organizationId));
    expect(bob).toMatchObject({ object: 'user', id: acme.users.bob.id, displayName: 'Bob' });
    expect(bob).not.toHaveProperty('email');
    expect(await reason(get(other.admin.id, readerOf(acme.organizationId)))).toBe('not_found');
    expect(await reason(get('nobody', readerOf(acme.organizationId)))).toBe('not_found');
  });
});
