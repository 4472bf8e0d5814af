import { describe, expect, it } from 'vitest';
import { ops, type RevisionPage } from '@quire/contracts';
import type { DomainError } from '@quire/kit';
import { buildSpace, failureOf, startTestService, userActor, useTestService, useWebSite } from '@quire/kit/testing';
import { changeRequestCreator } from '../../commands/change-request-writer.ts';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { ChangeRequest } from '../change-requests/change-request.entity.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import { ACME_DOCS } from './import.fixtures.ts';

const ORG = 'org1';
const admin = userActor('admin-user', [{ organization: ORG, role: 'admin' }]);
const reviewer = userActor('reviewer', [{ organization: ORG, role: 'review' }]);
const editor = userActor('editor', [{ organization: ORG, role: 'edit' }]);
const reader = userActor('reader', [{ organization: ORG, role: 'read' }]);
const stranger = userActor('stranger', [{ organization: 'org2', role: 'admin' }]);

const site = useWebSite(ACME_DOCS);

const t = useTestService(contentService, loadContentConfig, {
  label: 'import',
  env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
});

/** The page tree as `title` (nested titles), depth first. */
const outline = (pages: RevisionPage[]): unknown[] =>
  pages.map((p) => ('pages' in p && p.pages.length ? [p.title, outline(p.pages as RevisionPage[])] : p.title));
/** Every page, depth first, with its path (`api/auth`). */
const flatten = (pages: RevisionPage[]): { id: string; title: string; path: string }[] =>
  pages.flatMap((p) => [
    { id: p.id, title: p.title, path: 'path' in p ? p.path : '' },
    ...flatten(('pages' in p ? p.pages : []) as RevisionPage[]),
  ]);
/** Every `data.ref` of a JSON document. */
const refsOf = (node: unknown): unknown[] =>
  Array.isArray(node)
    ? node.flatMap(refsOf)
    : node && typeof node === 'object'
      ? [
          ...('data' in node && (node as { data: { ref?: unknown } }).data?.ref
            ? [(node as { data: { ref: unknown } }).data.ref]
            : []),
          ...Object.values(node).flatMap(refsOf),
        ]
      : [];

describe('importContent (into a space)', () => {
  it('imports the pages, their tree and images through a change request merged at once, links between pages resolving', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Handbook' });
    const result = await t.call(
      ops.importContent,
      { spaceId: space.id, url: `${site.origin}/docs/`, source: 'website' },
      admin,
    );
    // How long it takes is the bench's to say (docs/api-reference.md has the figures), not a test's.
    expect(result).toEqual({ revision: expect.any(String), importedResources: 8, totalResources: 11 });

    const live = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    expect(live.id).toBe(result.revision);
    expect(live.type).toBe('merge');
    expect(outline(live.pages)).toEqual(['Acme Docs', 'Setup', ['API', ['Authentication', 'Tokens']], 'FAQ']);
    expect(flatten(live.pages).map((p) => p.path)).toEqual([
      'acme-docs',
      'setup',
      'api',
      'api/auth',
      'api/tokens',
      'faq',
    ]);
    expect(live.files.map((f) => [f.name, f.contentType, f.dimensions]).sort()).toEqual([
      ['diagram.png', 'image/png', { width: 120, height: 80 }],
      ['logo.png', 'image/png', { width: 64, height: 32 }],
    ]);

    // The change request that carried it, merged; the events of a merge.
    const ofSpace = async (type: string) =>
      (await t.outboxEvents(type)).map((e) => e.data as Record<string, unknown>).filter((d) => d.space === space.id);
    const [created] = await ofSpace('change-request.created');
    expect(await ofSpace('change-request.merged')).toEqual([
      expect.objectContaining({ changeRequest: created!.changeRequest, revision: result.revision, conflicts: 0 }),
    ]);
    expect((await ofSpace('space.content-updated')).map((d) => d.revision)).toEqual([result.revision]);
    const cr = await t.em().findOneOrFail(ChangeRequest, { id: created!.changeRequest as string });
    expect([cr.subject, cr.status, cr.createdBy, cr.mergedBy]).toEqual([
      `Import of ${site.origin}/docs/`,
      'merged',
      admin.kind === 'user' ? admin.userId : '',
      admin.kind === 'user' ? admin.userId : '',
    ]);

    // Images are files of the revision, referenced as files; page links point at pages and headings that exist.
    const setup = flatten(live.pages).find((p) => p.title === 'Setup')!;
    const doc = await t.call(ops.getPageById, { spaceId: space.id, pageId: setup.id, format: 'document' }, admin);
    const diagram = live.files.find((f) => f.name === 'diagram.png')!;
    expect(refsOf((doc as { document: unknown }).document)).toContainEqual({ kind: 'file', file: diagram.id });
    const links = await t.call(ops.listSpaceLinks, { spaceId: space.id }, admin);
    expect(links.stats.broken.total).toBe(0);
    const pageLinks = links.items.filter(
      (i) => i.targetReference.kind === 'page' || i.targetReference.kind === 'anchor',
    );
    expect(pageLinks.length).toBeGreaterThanOrEqual(5);
    expect(new Set(pageLinks.map((i) => i.status))).toEqual(new Set(['ok']));
    expect(pageLinks).toContainEqual(
      expect.objectContaining({
        targetReference: expect.objectContaining({ kind: 'anchor', page: setup.id, anchor: 'installing-on-linux' }),
      }),
    );
  });

  it('needs the review role (it changes the live content at once), refuses a locked space with 409, fetching nothing for either', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const before = site.requests.length;
    const input = { spaceId: space.id, url: `${site.origin}/docs/`, source: 'website' as const };
    expect((await failureOf<DomainError>(t.call(ops.importContent, input, editor))).message).toMatch(
      /Importing content into the space \(merged at once\) needs the `review` role/,
    );
    expect((await failureOf<DomainError>(t.call(ops.importContent, input, reader))).reason).toBe('forbidden');
    expect((await failureOf<DomainError>(t.call(ops.importContent, input, stranger))).reason).toBe('not_found');
    await t.call(ops.updateSpaceById, { spaceId: space.id, editMode: 'locked' }, admin);
    expect((await failureOf<DomainError>(t.call(ops.importContent, input, admin))).reason).toBe('conflict');
    expect(site.requests.length).toBe(before);
    await t.call(ops.updateSpaceById, { spaceId: space.id, editMode: 'live' }, admin);
    // From a page below a folder, the site is that folder: Tokens, and the API pages beside it.
    expect(
      (await t.call(ops.importContent, { ...input, url: `${site.origin}/docs/api/tokens.html` }, reviewer))
        .importedResources,
    ).toBe(3);
  });

  it('answers 400 with the reason when the start page cannot be read, writing nothing', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const refused = async (url: string) => {
      const err = await failureOf<DomainError>(
        t.call(ops.importContent, { spaceId: space.id, url, source: 'website' }, admin),
      );
      expect(err.reason).toBe('invalid_input');
      return err.message;
    };
    expect(await refused(`${site.origin}/docs/missing.html`)).toBe(
      `Invalid request: url: ${site.origin}/docs/missing.html answered HTTP 404`,
    );
    expect(await refused(`${site.origin}/docs/manual.pdf`)).toMatch(/is not an HTML page \(application\/pdf\)$/);
    expect(await refused('http://no-such-host.invalid/docs/')).toMatch(/cannot resolve no-such-host\.invalid/);
    expect((await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).pages).toEqual([]);
    expect((await t.call(ops.listChangeRequestsForSpace, { spaceId: space.id, status: 'merged' }, admin)).count).toBe(
      0,
    );
  });

  it('refuses loopback and private addresses without QUIRE_ALLOW_PRIVATE_FETCH=1', async () => {
    const guarded = await startTestService(contentService, loadContentConfig, t.db);
    try {
      const space = await buildSpace(guarded, { org: ORG, as: admin });
      const err = await failureOf<DomainError>(
        guarded.call(ops.importContent, { spaceId: space.id, url: `${site.origin}/docs/`, source: 'website' }, admin),
      );
      expect(err.reason).toBe('invalid_input');
      expect(err.message).toBe(
        `Invalid request: url: Refusing to fetch ${site.origin}/docs/: 127.0.0.1 resolves to a loopback or private address; set QUIRE_ALLOW_PRIVATE_FETCH=1 to allow it`,
      );
    } finally {
      await guarded.close();
    }
  });
});

/** A change request of the space, made by the command (its API answer presents users: org-admin, not running here). */
async function changeRequestOf(spaceId: string, createdBy: string) {
  const em = t.em();
  return em.transactional(async (tx) =>
    changeRequestCreator(tx, { space: (await spaceRepository.findById(tx, spaceId))!, createdBy }),
  );
}

describe('importContentInChangeRequest', () => {
  it('adds the site to the change request only, after its pages, slugs kept unique beside them', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const cr = await changeRequestOf(space.id, 'editor');
    const liveBefore = (await t.call(ops.getCurrentRevision, { spaceId: space.id }, editor)).id;
    const input = {
      spaceId: space.id,
      changeRequestId: String(cr.number),
      url: `${site.origin}/docs/api/`,
      source: 'website' as const,
    };

    const first = await t.call(ops.importContentInChangeRequest, input, editor);
    expect(first).toEqual({ revision: expect.any(String), importedResources: 3, totalResources: 3 });
    const second = await t.call(ops.importContentInChangeRequest, input, editor);

    const content = await t.call(
      ops.getRevisionOfChangeRequestById,
      { spaceId: space.id, changeRequestId: cr.id },
      editor,
    );
    expect(content.id).toBe(second.revision);
    expect(content.parents).toEqual([first.revision]);
    // The start page is the folder's page, a top-level page as the pages beside it.
    expect(outline(content.pages)).toEqual(['API', 'Authentication', 'Tokens', 'API', 'Authentication', 'Tokens']);
    expect(flatten(content.pages).map((p) => p.path)).toEqual(['api', 'auth', 'tokens', 'api-2', 'auth-2', 'tokens-2']);
    expect((await t.call(ops.getCurrentRevision, { spaceId: space.id }, editor)).id).toBe(liveBefore);
    expect((await t.em().findOneOrFail(ChangeRequest, { id: cr.id })).status).toBe('draft');

    const auth = flatten(content.pages).find((p) => p.path === 'auth-2')!;
    const links = await t.call(
      ops.listPageLinksInChangeRequest,
      { spaceId: space.id, changeRequestId: cr.id, pageId: auth.id },
      editor,
    );
    expect(links.items.map((i) => [i.status, i.targetReference])).toEqual([
      [
        'ok',
        expect.objectContaining({ kind: 'page', page: flatten(content.pages).find((p) => p.path === 'tokens-2')!.id }),
      ],
    ]);
  });

  it('refuses a reader with 403 and a merged change request with 409', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const cr = await changeRequestOf(space.id, 'admin-user');
    const input = {
      spaceId: space.id,
      changeRequestId: cr.id,
      url: `${site.origin}/docs/api/tokens.html`,
      source: 'website' as const,
    };
    expect((await failureOf<DomainError>(t.call(ops.importContentInChangeRequest, input, reader))).reason).toBe(
      'forbidden',
    );
    await t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin);
    expect((await failureOf<DomainError>(t.call(ops.importContentInChangeRequest, input, admin))).reason).toBe(
      'conflict',
    );
  });
});
