import { describe, expect, it } from 'vitest';
import { ops, type CustomHostnameStatus } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { failureOf, useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import { Site } from '../modules/sites/site.entity.ts';
import { sitesService } from '../service.ts';
import { orgActors } from '../test-support.ts';
import { hostnameCheckRecorder, hostnameClaimer } from './hostname-commands.ts';

const ORG = 'org-hostnames';
const { creator } = orgActors(ORG, 'org-elsewhere');
const t = useTestService(sitesService, loadSitesConfig, { label: 'hostname-commands' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const newSite = async () => (await t.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator)).id;
const site = (id: string) => t.em().fork().findOneOrFail(Site, { id });
const claim = (siteId: string, hostname: string | null) =>
  inTx(async (tx) => {
    const s = await tx.findOneOrFail(Site, { id: siteId });
    const changed = await hostnameClaimer(tx, s, hostname);
    return { changed, token: s.hostnameToken };
  });
const check = (siteId: string, token: string, status: CustomHostnameStatus, now = new Date()) =>
  inTx(async (tx) =>
    hostnameCheckRecorder(tx, { site: await tx.findOneOrFail(Site, { id: siteId }), token, status, now }),
  );
const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};
const hostnameUpdates = async (siteId: string) =>
  (await t.outboxEvents('site.updated'))
    .map((e) => e.data as { site: string; fields: string[] })
    .filter((d) => d.site === siteId && d.fields.includes('hostname')).length;

describe('hostnameClaimer', () => {
  it('claims a hostname unverified with a new token, changes nothing for the same one, and removes it', async () => {
    const id = await newSite();
    const first = await claim(id, 'docs.claimed.test');
    expect(first.changed).toBe(true);
    expect(first.token).toMatch(/^[0-9a-f]{32}$/);
    expect(await site(id)).toMatchObject({
      hostname: 'docs.claimed.test',
      hostnameVerified: false,
      hostnameStatus: null,
      hostnameCheckedAt: null,
    });
    expect(await claim(id, 'docs.claimed.test')).toEqual({ changed: false, token: first.token });
    const other = await claim(id, 'help.claimed.test');
    expect(other.token).not.toBe(first.token);
    expect(await claim(id, null)).toEqual({ changed: true, token: null });
    expect((await site(id)).hostname).toBeNull();
  });

  it('claims a hostname only claimed elsewhere, and refuses one another site has proven (409)', async () => {
    const [a, b, c] = [await newSite(), await newSite(), await newSite()];
    const { token } = await claim(a, 'docs.proven.test');
    await claim(b, 'docs.proven.test');
    await check(a, token!, 'dns_passed');
    expect(await refusal(claim(c, 'docs.proven.test'))).toEqual({
      reason: 'conflict',
      message: 'hostname: another site already uses docs.proven.test',
    });
    expect((await site(c)).hostname).toBeNull();
  });
});

describe('hostnameCheckRecorder', () => {
  it('serves a proven hostname, stops on a wrong record, keeps serving through a DNS failure', async () => {
    const id = await newSite();
    const { token } = await claim(id, 'docs.checked.test');
    const at = new Date('2031-07-01T00:00:00Z');
    await check(id, token!, 'dns_no_cname', at);
    expect(await site(id)).toMatchObject({
      hostnameVerified: false,
      hostnameStatus: 'dns_no_cname',
      hostnameCheckedAt: at,
    });
    expect(await hostnameUpdates(id)).toBe(0);
    await check(id, token!, 'dns_passed');
    expect(await site(id)).toMatchObject({ hostnameVerified: true, hostnameStatus: 'dns_passed' });
    expect(await hostnameUpdates(id)).toBe(1);
    await check(id, token!, 'internal_error');
    expect(await site(id)).toMatchObject({ hostnameVerified: true, hostnameStatus: 'internal_error' });
    expect(await hostnameUpdates(id)).toBe(1);
    await check(id, token!, 'dns_wrong_cname');
    expect(await site(id)).toMatchObject({ hostnameVerified: false, hostnameStatus: 'dns_wrong_cname' });
    expect(await hostnameUpdates(id)).toBe(2);
  });

  it('refuses a check made for a hostname claimed again since, and a proof another site made first (409)', async () => {
    const [a, b] = [await newSite(), await newSite()];
    const old = await claim(a, 'docs.stale.test');
    await claim(a, 'docs.fresh.test');
    expect(await refusal(check(a, old.token!, 'dns_passed'))).toEqual({
      reason: 'conflict',
      message: 'hostname: the site claimed another hostname during the check; check again',
    });
    const mine = await claim(b, 'docs.fresh.test');
    await check(a, (await site(a)).hostnameToken!, 'dns_passed');
    expect(await refusal(check(b, mine.token!, 'dns_passed'))).toEqual({
      reason: 'conflict',
      message: 'hostname: another site has proven docs.fresh.test',
    });
    expect(await site(b)).toMatchObject({ hostnameVerified: false, hostnameStatus: null });
  });
});
