import { describe, expect, it } from 'vitest';
import { proofRecordValue, type EntityManager } from '@quire/kit';
import { failureOf, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { OrganizationDomain } from '../modules/domains/domain.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import { emailDomainClaimer, emailDomainDeleter, MAX_EMAIL_DOMAINS } from './email-domain-writer.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'email-domain-writer' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const t0 = new Date('2031-09-01T00:00:00Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const claim = (organizationId: string, domain: string, records: string[], now: Date) =>
  inTx((tx) => emailDomainClaimer(tx, { organizationId, domain, records, now }));
const stored = (organizationId: string, domain: string) =>
  t.em().fork().findOne(OrganizationDomain, { organizationId, domain });

describe('emailDomainClaimer', () => {
  it('claims a domain with a token of its own, verified while the TXT record holds it and no longer once it does not', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const first = await claim(organizationId, 'acme.test', [], t0);
    expect(await stored(organizationId, 'acme.test')).toMatchObject({
      token: first.token,
      createdAt: t0,
      checkedAt: t0,
      verifiedAt: null,
    });
    const proof = proofRecordValue(first.token);
    // Another record, or the token of another claim, proves nothing.
    await claim(organizationId, 'acme.test', ['v=spf1 -all', proofRecordValue('another-token')], at(1));
    expect((await stored(organizationId, 'acme.test'))?.verifiedAt).toBeNull();
    await claim(organizationId, 'acme.test', ['v=spf1 -all', `  ${proof} `], at(2));
    expect(await stored(organizationId, 'acme.test')).toMatchObject({ token: first.token, verifiedAt: at(2) });
    // Verified since the first check that found it.
    await claim(organizationId, 'acme.test', [proof], at(3));
    expect(await stored(organizationId, 'acme.test')).toMatchObject({ checkedAt: at(3), verifiedAt: at(2) });
    await claim(organizationId, 'acme.test', [], at(4));
    expect(await stored(organizationId, 'acme.test')).toMatchObject({ checkedAt: at(4), verifiedAt: null });
  });

  it('gives each organization its own claim and token for the same domain', async () => {
    const a = await seedOrganization(t, {});
    const b = await seedOrganization(t, {});
    const ofA = await claim(a.organizationId, 'shared.test', [], t0);
    const ofB = await claim(b.organizationId, 'shared.test', [proofRecordValue(ofA.token)], t0);
    expect(ofB.token).not.toBe(ofA.token);
    expect((await stored(b.organizationId, 'shared.test'))?.verifiedAt).toBeNull();
  });

  it(`refuses a domain past ${MAX_EMAIL_DOMAINS} (409), and checks one already claimed`, async () => {
    const { organizationId } = await seedOrganization(t, {});
    await inTx(async (tx) => {
      for (let i = 0; i < MAX_EMAIL_DOMAINS; i++)
        tx.create(OrganizationDomain, {
          organizationId,
          domain: `d${i}.test`,
          token: `t${i}`,
          createdAt: t0,
          checkedAt: null,
          verifiedAt: null,
        });
    });
    const err = await failureOf(claim(organizationId, 'one-more.test', [], t0));
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: 'conflict',
      message: `An organization claims at most ${MAX_EMAIL_DOMAINS} e-mail domains`,
    });
    expect(await stored(organizationId, 'one-more.test')).toBeNull();
    await claim(organizationId, 'd0.test', [proofRecordValue('t0')], at(1));
    expect((await stored(organizationId, 'd0.test'))?.verifiedAt).toEqual(at(1));
  });
});

describe('emailDomainDeleter', () => {
  it('gives up the claim', async () => {
    const { organizationId } = await seedOrganization(t, {});
    await claim(organizationId, 'gone.test', [], t0);
    await inTx(async (tx) =>
      emailDomainDeleter(tx, {
        domain: await tx.findOneOrFail(OrganizationDomain, { organizationId, domain: 'gone.test' }),
      }),
    );
    expect(await stored(organizationId, 'gone.test')).toBeNull();
  });
});
