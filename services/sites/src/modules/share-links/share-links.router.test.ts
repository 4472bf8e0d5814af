import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { buildSpace, failureOf, userActor } from '@quire/kit/testing';
import { useSitesAndContent } from '../../test-support.ts';

const ORG = 'org-keys';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
const creator = userActor('creator', [{ organization: ORG, role: 'create' }]);
const reader = userActor('reader', [{ organization: ORG, role: 'read' }]);

const p = useSitesAndContent('share-keys', { inProcessBus: true });

const keyOf = (link: { urls: { published?: string | undefined } }) =>
  new URL(link.urls.published!).searchParams.get('share')!;

describe('rotateSiteShareLinkKey (Quire only)', () => {
  it('gives a link a new key: the old one opens nothing, the new one opens the site', async () => {
    const space = await buildSpace(p.content, { org: ORG, title: 'Partner docs', as: admin });
    const site = await p.sites.call(
      ops.createSite,
      { organizationId: ORG, title: 'Partners', visibility: 'share-link', spaces: [space.id] },
      creator,
    );
    await p.sites.call(ops.publishSite, { organizationId: ORG, siteId: site.id }, creator);
    const link = await p.sites.call(
      ops.createSiteShareLink,
      { organizationId: ORG, siteId: site.id, name: 'Acme' },
      creator,
    );
    const oldKey = keyOf(link);
    const input = { organizationId: ORG, siteId: site.id, shareLinkId: link.id };

    const rotated = await p.sites.call(ops.rotateSiteShareLinkKey, input, creator);
    const newKey = keyOf(rotated);
    expect(rotated).toMatchObject({ object: 'share-link', id: link.id, name: 'Acme', active: true });
    expect(newKey).not.toBe(oldKey);
    expect(newKey).toHaveLength(oldKey.length);

    const published = (shareKey: string) =>
      p.sites.call(ops.getPublishedContentSite, { organizationId: ORG, siteId: site.id, shareKey }, reader);
    expect((await failureOf(published(oldKey))).reason).toBe('not_found');
    expect((await published(newKey)).site.urls.published).toContain(`share=${newKey}`);
    // The list shows the new key; readers may not rotate; an unknown link is a 404.
    const listed = await p.sites.call(ops.listSiteShareLinks, { organizationId: ORG, siteId: site.id }, creator);
    expect(listed.items.map(keyOf)).toEqual([newKey]);
    expect((await failureOf(p.sites.call(ops.rotateSiteShareLinkKey, input, reader))).reason).toBe('forbidden');
    expect(
      (await failureOf(p.sites.call(ops.rotateSiteShareLinkKey, { ...input, shareLinkId: 'nope' }, creator))).reason,
    ).toBe('not_found');
  });
});
