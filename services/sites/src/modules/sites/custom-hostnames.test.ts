import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { setTxtResolver } from '@quire/kit';
import { eventually, failureOf, testLogger } from '@quire/kit/testing';
import { orgActors, spaceWithPages, useSitesAndContent } from '../../test-support.ts';
import { recheckHostnames } from './hostname-recheck.job.ts';

/**
 * Custom hostnames serve a site only once a DNS TXT record proves the organization controls them: checked on
 * demand (`dnsRevalidateCustomHostname`) and by the recheck job, against a DNS zone of the test's own.
 */
const ORG = 'org-hosts';
const OTHER = 'org-hosts-other';
const HOST = 'docs.acme-hosts.test';
const { admin, stranger } = orgActors(ORG, OTHER);
const gateway: Actor = { kind: 'service', service: 'gateway' };

/** The test's DNS: TXT records by name; a name without records has none, `broken` a server failure. */
const zone = new Map<string, string[]>();
let broken = false;
beforeAll(() =>
  setTxtResolver(async (name) => {
    if (broken) throw Object.assign(new Error('queryTxt ESERVFAIL'), { code: 'ESERVFAIL' });
    return zone.get(name) ?? [];
  }),
);
afterAll(() => setTxtResolver(null));

const p = useSitesAndContent('custom-hostnames', { inProcessBus: true, orgAdmin: true });

/** A published site of `org` with one space holding a page that says `title`, as `as`; served on the instance. */
async function publishedSite(org: string, as: Actor, title: string) {
  const page = { title: 'Welcome', markdown: `${title} welcome` };
  const spaceId = await spaceWithPages(p, { org, title: `${title} space`, as }, [page]);
  const site = await p.sites.call(ops.createSite, { organizationId: org, title, spaces: [spaceId] }, as);
  await p.sites.call(ops.publishSite, { organizationId: org, siteId: site.id }, as);
  await eventually(async () => (await visit('quire.test', `/sites/${site.basename}`)).status === 200);
  return site;
}
const claim = (org: string, siteId: string, as: Actor, hostname: string | null = HOST) =>
  p.sites.call(ops.updateSiteById, { organizationId: org, siteId, hostname }, as);
/** A visitor's GET of the hostname's root, as the gateway asks it. */
const visit = (host = HOST, path = '/') =>
  p.sites.call(ops.getPublishedSitePage, { host, path, query: {}, cookies: {} }, gateway);
const hostnameAs = (as: Actor) => p.sites.call(ops.getCustomHostname, { hostname: HOST }, as);
const revalidate = (as: Actor) => p.sites.call(ops.dnsRevalidateCustomHostname, { hostname: HOST }, as);
const publish = (record: { name: string; value: string }) => zone.set(record.name, [record.value]);

describe('custom hostnames', () => {
  it('serve only once DNS proves ownership; another organization neither blocks nor takes them; a failed recheck stops them', async () => {
    const ours = await publishedSite(ORG, admin, 'Ours');
    const theirs = await publishedSite(OTHER, stranger, 'Theirs');

    // Claimed, not proven: not served, and the site's published URL stays on the instance.
    const claimed = await claim(ORG, ours.id, admin);
    expect([claimed.hostname, claimed.urls.published]).toEqual([HOST, `http://quire.test/sites/${ours.basename}`]);
    expect((await visit()).status).toBe(404);
    const pending = await hostnameAs(admin);
    expect(pending).toMatchObject({
      object: 'custom-hostname',
      hostname: HOST,
      target: { type: 'site', site: ours.id },
      isActive: false,
      status: 'dns_no_cname',
      verification: { type: 'TXT', name: `_quire-verification.${HOST}` },
      urls: { location: `http://quire.test/v1/custom-hostnames/${HOST}` },
    });
    expect(pending.verification.value).toMatch(/^quire-verification=[a-f0-9]{32}$/);

    // Another organization claims it too: allowed (an unproven claim blocks no one), and each sees its own claim.
    await claim(OTHER, theirs.id, stranger);
    const theirClaim = await hostnameAs(stranger);
    expect(theirClaim.target.site).toBe(theirs.id);
    expect(theirClaim.verification.value).not.toBe(pending.verification.value);

    // A record with another value does not prove it; the right one does, on demand.
    zone.set(pending.verification.name, ['quire-verification=someone-else']);
    await revalidate(admin);
    expect(await hostnameAs(admin)).toMatchObject({ isActive: false, status: 'dns_wrong_cname' });
    publish(pending.verification);
    await revalidate(admin);
    expect(await hostnameAs(admin)).toMatchObject({ isActive: true, status: 'dns_passed' });
    const served = await visit();
    expect([served.kind, served.status]).toEqual(['response', 200]);
    expect(served.body).toContain('Ours welcome');
    const site = await p.sites.call(ops.getSiteById, { organizationId: ORG, siteId: ours.id }, admin);
    expect(site.urls.published).toBe(`https://${HOST}`);

    // The other organization cannot take it: neither by proving its own record nor by claiming it anew.
    zone.set(pending.verification.name, [pending.verification.value, theirClaim.verification.value]);
    expect((await failureOf(revalidate(stranger))).reason).toBe('conflict');
    expect(await hostnameAs(stranger)).toMatchObject({ isActive: false });
    await claim(OTHER, theirs.id, stranger, null);
    expect((await failureOf(claim(OTHER, theirs.id, stranger))).message).toMatch(
      /^hostname: another site already uses/,
    );
    expect((await visit()).body).toContain('Ours welcome');

    // A DNS failure changes nothing; the record gone, the recheck stops serving the hostname.
    broken = true;
    const em = p.sites.svc.deps.orm.em.fork();
    expect(await recheckHostnames(em, testLogger())).toMatchObject({ checked: 1, lapsed: 0 });
    expect(await hostnameAs(admin)).toMatchObject({ isActive: true, status: 'internal_error' });
    broken = false;
    zone.delete(pending.verification.name);
    expect(await recheckHostnames(em, testLogger())).toMatchObject({ checked: 1, lapsed: 1 });
    expect(await hostnameAs(admin)).toMatchObject({ isActive: false, status: 'dns_no_cname' });
    await eventually(async () => (await visit()).status === 404);

    // Put back, the recheck serves it again.
    publish(pending.verification);
    expect(await recheckHostnames(em, testLogger())).toMatchObject({ verified: 1 });
    await eventually(async () => (await visit()).status === 200);
  });

  it('is shown to members of the claiming organization only, and removed by them', async () => {
    const site = await publishedSite(ORG, admin, 'Removable');
    const hostname = 'help.acme-hosts.test';
    await claim(ORG, site.id, admin, hostname);
    expect((await failureOf(p.sites.call(ops.getCustomHostname, { hostname }, stranger))).reason).toBe('not_found');
    expect((await failureOf(p.sites.call(ops.removeCustomHostname, { hostname }, stranger))).reason).toBe('not_found');
    await p.sites.call(ops.removeCustomHostname, { hostname }, admin);
    const after = await p.sites.call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, admin);
    expect(after.hostname).toBeUndefined();
    expect((await failureOf(p.sites.call(ops.getCustomHostname, { hostname }, admin))).reason).toBe('not_found');
  });
});
