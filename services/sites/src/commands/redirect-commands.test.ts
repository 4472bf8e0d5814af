import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import { SiteRedirect } from '../modules/redirects/redirect.entity.ts';
import { Site, type ISite } from '../modules/sites/site.entity.ts';
import { sitesService } from '../service.ts';
import { orgActors, refusal } from '../test-support.ts';
import {
  redirectCreator,
  redirectDeleter,
  redirectPublisher,
  redirectSourceDeleter,
  redirectUpdater,
  redirectUpserter,
  type RedirectFields,
} from './redirect-commands.ts';

const ORG = 'org-redirects';
const { creator } = orgActors(ORG, 'org-elsewhere');
const t = useTestService(sitesService, loadSitesConfig, { label: 'redirect-commands' });

const onSite = <T>(siteId: string, fn: (tx: EntityManager, site: ISite) => Promise<T>) =>
  t.em().transactional(async (tx) => fn(tx, await tx.findOneOrFail(Site, { id: siteId })));
const newSite = async () => (await t.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator)).id;
const fields = (source: string, over: Partial<RedirectFields> = {}): RedirectFields => ({
  source,
  draft: false,
  captureWildcard: false,
  permanent: true,
  destination: { kind: 'external', url: 'https://example.test/new' },
  ...over,
});
const redirectsOf = async (siteId: string) =>
  (await t.em().find(SiteRedirect, { siteId }, { orderBy: { source: 'asc', draft: 'asc' } })).map((r) => ({
    source: r.source,
    draft: r.draft,
    permanent: r.permanent,
    destination: r.destination,
  }));

describe('redirectCreator and redirectUpdater', () => {
  it('refuses a second redirect from the same source and state (409 naming source); a draft beside a live one is fine', async () => {
    const siteId = await newSite();
    await onSite(siteId, (tx, site) => redirectCreator(tx, { site, fields: fields('/old') }));
    expect(await refusal(onSite(siteId, (tx, site) => redirectCreator(tx, { site, fields: fields('/old') })))).toEqual({
      reason: 'conflict',
      message: 'Invalid `source`: the site already has a live redirect from /old',
    });
    const draft = await onSite(siteId, (tx, site) =>
      redirectCreator(tx, { site, fields: fields('/old', { draft: true, permanent: false }) }),
    );
    const other = await onSite(siteId, (tx, site) => redirectCreator(tx, { site, fields: fields('/other') }));
    // Moving a redirect onto a source its state holds already: 409; elsewhere: changed in place.
    const update = (id: string, patch: Partial<RedirectFields>) =>
      onSite(siteId, async (tx) =>
        redirectUpdater(tx, { redirect: await tx.findOneOrFail(SiteRedirect, { id }), patch }),
      );
    expect(await refusal(update(other.id, { source: '/old' }))).toEqual({
      reason: 'conflict',
      message: 'Invalid `source`: the site already has a live redirect from /old',
    });
    expect(await refusal(update(draft.id, { draft: false }))).toEqual({
      reason: 'conflict',
      message: 'Invalid `source`: the site already has a live redirect from /old',
    });
    const moved = await update(other.id, { source: '/elsewhere', permanent: false });
    expect(moved).toMatchObject({ id: other.id, source: '/elsewhere', permanent: false, createdAt: other.createdAt });
    expect(await redirectsOf(siteId)).toEqual([
      { source: '/elsewhere', draft: false, permanent: false, destination: fields('').destination },
      { source: '/old', draft: false, permanent: true, destination: fields('').destination },
      { source: '/old', draft: true, permanent: false, destination: fields('').destination },
    ]);
  });
});

describe('redirectUpserter, redirectPublisher and the deleters', () => {
  it('upserts in place (id kept, permanence kept unless given), publishes a draft over the live one, deletes', async () => {
    const siteId = await newSite();
    const up = (f: Parameters<typeof redirectUpserter>[1]['fields']) =>
      onSite(siteId, (tx, site) => redirectUpserter(tx, { site, fields: f }));
    const first = await up(fields('/a'));
    expect(first.created).toBe(true);
    const { permanent: _p, ...withoutPermanence } = fields('/a', {
      destination: { kind: 'external', url: 'https://b.test/' },
    });
    const second = await up(withoutPermanence);
    expect(second).toMatchObject({ created: false, redirect: { id: first.redirect.id, permanent: true } });
    expect((await redirectsOf(siteId))[0]!.destination).toEqual({ kind: 'external', url: 'https://b.test/' });

    await up(
      fields('/a', { draft: true, permanent: false, destination: { kind: 'external', url: 'https://c.test/' } }),
    );
    const publish = (source: string) => onSite(siteId, (tx, site) => redirectPublisher(tx, { site, source }));
    const live = await publish('/a');
    expect(live).toMatchObject({ id: first.redirect.id, draft: false, permanent: false });
    expect(await redirectsOf(siteId)).toEqual([
      { source: '/a', draft: false, permanent: false, destination: { kind: 'external', url: 'https://c.test/' } },
    ]);
    expect(await publish('/a')).toBeNull();

    const bySource = (source: string, draft: boolean) =>
      onSite(siteId, (tx) => redirectSourceDeleter(tx, { siteId, source, draft }));
    expect(await bySource('/a', true)).toBe(false);
    const b = await up(fields('/b'));
    expect(await bySource('/a', false)).toBe(true);
    expect(await onSite(siteId, (tx) => redirectDeleter(tx, { siteId: 'another-site', id: b.redirect.id }))).toBe(
      false,
    );
    expect(await onSite(siteId, (tx) => redirectDeleter(tx, { siteId, id: b.redirect.id }))).toBe(true);
    expect(await redirectsOf(siteId)).toEqual([]);
  });
});
