import { afterAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { setTxtResolver } from '@quire/kit';
import { failureOf, reasonOf, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'emaildomains' });

/** The DNS the test controls: TXT records by name; a name in `failing` times out. */
const zone = new Map<string, string[]>();
const failing = new Set<string>();
setTxtResolver(async (name) => {
  if (failing.has(name)) throw Object.assign(new Error('queryTxt ETIMEOUT'), { code: 'ETIMEOUT' });
  return zone.get(name) ?? [];
});
afterAll(() => setTxtResolver(null));

describe('e-mail domains an organization proves by DNS', () => {
  it('claims a domain, verifies it once the TXT record holds its token, un-verifies it when gone', async () => {
    const { organizationId, admin, users } = await seedOrganization(t, { eve: 'edit' });
    const claimed = await t.call(
      ops.upsertOrganizationEmailDomain,
      { organizationId, emailDomain: 'Acme.IO' },
      admin.actor,
    );
    expect(claimed).toMatchObject({
      object: 'email-domain',
      domain: 'acme.io',
      verified: false,
      record: { type: 'TXT', name: '_quire-verification.acme.io' },
      urls: { location: `http://quire.test/v1/orgs/${organizationId}/email-domains/acme.io` },
    });
    expect(claimed.record.value).toMatch(/^quire-verification=[\w-]{43}$/);
    expect(claimed.verifiedAt).toBeUndefined();

    // Another organization's token, or a near miss, proves nothing.
    zone.set('_quire-verification.acme.io', ['quire-verification=someone-else', `${claimed.record.value}x`]);
    expect(
      (await t.call(ops.upsertOrganizationEmailDomain, { organizationId, emailDomain: 'acme.io' }, admin.actor))
        .verified,
    ).toBe(false);
    zone.set('_quire-verification.acme.io', ['v=spf1 -all', claimed.record.value]);
    const verified = await t.call(
      ops.upsertOrganizationEmailDomain,
      { organizationId, emailDomain: 'acme.io' },
      admin.actor,
    );
    expect(verified).toMatchObject({ verified: true, record: claimed.record });
    expect(verified.verifiedAt).toBeDefined();
    const list = await t.call(ops.listOrganizationEmailDomains, { organizationId }, admin.actor);
    expect(list.items.map((d) => [d.domain, d.verified])).toEqual([['acme.io', true]]);

    // The record removed: the next check takes the proof back.
    zone.delete('_quire-verification.acme.io');
    expect(
      (await t.call(ops.upsertOrganizationEmailDomain, { organizationId, emailDomain: 'acme.io' }, admin.actor))
        .verified,
    ).toBe(false);

    // A DNS failure is an error, not a silent change.
    failing.add('_quire-verification.down.example');
    expect(
      await reasonOf(
        t.call(ops.upsertOrganizationEmailDomain, { organizationId, emailDomain: 'down.example' }, admin.actor),
      ),
    ).toBe('unavailable');

    // Admins only; another organization sees nothing; bad names are 400.
    expect(
      await reasonOf(
        t.call(ops.upsertOrganizationEmailDomain, { organizationId, emailDomain: 'evil.io' }, users.eve.actor),
      ),
    ).toBe('forbidden');
    const other = await seedOrganization(t, {});
    expect(
      await reasonOf(
        t.call(ops.getOrganizationEmailDomain, { organizationId, emailDomain: 'acme.io' }, other.admin.actor),
      ),
    ).toBe('not_found');
    for (const bad of ['localhost', 'a..b', '-a.io', 'a_b.io', `${'a'.repeat(64)}.io`]) {
      const err = await failureOf(
        t.call(ops.upsertOrganizationEmailDomain, { organizationId, emailDomain: bad }, admin.actor),
      );
      expect(err.reason, bad).toBe('invalid_input');
      expect(err.message, bad).toMatch(/emailDomain/);
    }
    await t.call(ops.deleteOrganizationEmailDomain, { organizationId, emailDomain: 'acme.io' }, admin.actor);
    expect(
      await reasonOf(t.call(ops.getOrganizationEmailDomain, { organizationId, emailDomain: 'acme.io' }, admin.actor)),
    ).toBe('not_found');
  });
});
