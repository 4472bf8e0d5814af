import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { failureOf, orgAdmin, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { plansHandbook, siteReader } from './reader.fixtures.ts';
import { insertPage } from '../search/search.fixtures.ts';

// getDocumentById, getComputedDocument and the page meta links (listSpacePageMetaLinks, …InChangeRequest,
// …InRevision): what GitBook's renderer reads beside a page, as a member and as a reader (a published-content token).

const t = useTestService(contentService, loadContentConfig, { label: 'doc_reads' });

const ORG = 'org-docreads';
const admin = orgAdmin(ORG);
const stranger = orgAdmin('org-elsewhere');
const readerOf = (space: string, claims?: Record<string, unknown>) => siteReader(ORG, space, claims);
const handbook = () => plansHandbook(t, ORG, admin);

const textOf = (doc: unknown) => JSON.stringify(doc);

describe('getDocumentById', () => {
  it("answers the document of a page's `documentId`, as stored for a member and evaluated for a reader", async () => {
    const h = await handbook();
    expect(h.plans.documentId).toMatch(/^[0-9a-f]{64}$/);
    const get = (as: Actor, documentId = h.plans.documentId!) =>
      t.call(ops.getDocumentById, { spaceId: h.space, documentId }, as);
    const stored = await get(admin);
    expect(stored).toMatchObject({ object: 'document', nodes: expect.any(Array) });
    expect(textOf(stored)).toContain('Everyone reads this.');
    expect(textOf(stored)).toContain('platypus');
    // The same document as the page's.
    const page = await t.call(
      ops.getPageDocumentInRevisionById,
      { spaceId: h.space, revisionId: h.revision, pageId: h.plans.id },
      admin,
    );
    expect(stored).toEqual(page);
    // A reader gets it evaluated against its claims.
    const anonymous = textOf(await get(readerOf(h.space)));
    expect(anonymous).toContain('Everyone reads this.');
    expect(anonymous).not.toMatch(/platypus|visitor/);
    expect(textOf(await get(readerOf(h.space, { plan: 'pro', unsigned: {} })))).toContain('platypus');
  });

  it('answers 404 for a document of no page of the space, of a hidden page to a reader, and to others', async () => {
    const h = await handbook();
    const other = await t.call(ops.createSpace, { organizationId: ORG, title: 'Other' }, admin);
    const at = (spaceId: string, documentId: string, as: Actor) =>
      failureOf(t.call(ops.getDocumentById, { spaceId, documentId }, as));
    expect((await at(h.space, 'f'.repeat(64), admin)).reason).toBe('not_found');
    // A document is addressed by its content: another space (without that page) does not serve it.
    expect((await at(other.id, h.plans.documentId!, admin)).reason).toBe('not_found');
    expect((await at(h.space, h.plans.documentId!, stranger)).reason).toBe('not_found');
    // A member reads the hidden page's document; a reader does not.
    expect(
      textOf(await t.call(ops.getDocumentById, { spaceId: h.space, documentId: h.internal.documentId! }, admin)),
    ).toContain('Wombat');
    expect((await at(h.space, h.internal.documentId!, readerOf(h.space))).reason).toBe('not_found');
    expect((await at(h.space, h.plans.documentId!, readerOf('other-space'))).reason).toBe('not_found');
  });

  it("reads a change request's documents (a document of a revision of the space)", async () => {
    const h = await handbook();
    const cr = await editContent(t, h.space, undefined, [insertPage('Draft', 'Echidna draft.')], 'u1', {
      subject: 'D',
    });
    const { pages } = await t.call(ops.listPagesInChangeRequest, { spaceId: h.space, changeRequestId: cr.id }, admin);
    const draft = pages.find((p) => p.title === 'Draft') as { documentId?: string };
    const doc = await t.call(ops.getDocumentById, { spaceId: h.space, documentId: draft.documentId! }, admin);
    expect(textOf(doc)).toContain('Echidna draft.');
    // A reader reads the live revision only.
    const reader = failureOf(
      t.call(ops.getDocumentById, { spaceId: h.space, documentId: draft.documentId! }, readerOf(h.space)),
    );
    expect((await reader).reason).toBe('not_found');
  });
});

describe('getComputedDocument', () => {
  it('answers 400 naming `source.type` (Quire has no computed content source), after checking access', async () => {
    const h = await handbook();
    const body = { spaceId: h.space, seed: 's', source: { type: 'builtin:openapi', props: { doc: 'models' } } };
    const failure = await failureOf(t.call(ops.getComputedDocument, body, admin));
    expect(failure.reason).toBe('invalid_input');
    expect(failure.message).toMatch(
      /^Invalid request: source\.type: Quire computes no documents yet \(`builtin:openapi`/,
    );
    expect((await failureOf(t.call(ops.getComputedDocument, body, stranger))).reason).toBe('not_found');
  });
});

describe('page meta links', () => {
  it('answers a document page its (empty) meta links in the live revision, a revision and a change request', async () => {
    const h = await handbook();
    const none = { alternates: [] };
    const revisionLinks = (as: Actor) =>
      t.call(ops.listRevisionPageMetaLinks, { spaceId: h.space, revisionId: h.revision, pageId: h.plans.id }, as);
    expect(await t.call(ops.listSpacePageMetaLinks, { spaceId: h.space, pageId: h.plans.id }, admin)).toEqual(none);
    expect(await revisionLinks(admin)).toEqual(none);
    const cr = await editContent(t, h.space, undefined, [insertPage('Draft', 'x')], 'u1', { subject: 'D' });
    expect(
      await t.call(
        ops.listChangeRequestPageMetaLinks,
        { spaceId: h.space, changeRequestId: cr.id, pageId: h.plans.id },
        admin,
      ),
    ).toEqual(none);
    expect(await revisionLinks(readerOf(h.space))).toEqual(none);
  });

  it('answers 404 for an unknown page, a hidden page to a reader, another organization', async () => {
    const h = await handbook();
    const at = (pageId: string, as: Actor = admin) =>
      failureOf(t.call(ops.listRevisionPageMetaLinks, { spaceId: h.space, revisionId: h.revision, pageId }, as));
    expect((await at('nope')).reason).toBe('not_found');
    expect((await at(h.internal.id, readerOf(h.space))).reason).toBe('not_found');
    expect((await at(h.plans.id, stranger)).reason).toBe('not_found');
  });
});
