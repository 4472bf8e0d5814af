import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { failureOf, orgAdmin, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { plansHandbook, siteReader } from '../document-reads/reader.fixtures.ts';

// The reads GitBook's site renderer makes that Quire serves since issue 42, as a member and as a reader
// (a published-content token) of a site showing the space.

const t = useTestService(contentService, loadContentConfig, { label: 'renderer' });

const ORG = 'org-renderer';
const admin = orgAdmin(ORG);
const stranger = orgAdmin('org-elsewhere');
const readerOf = (space: string, claims?: Record<string, unknown>) => siteReader(ORG, space, claims);

async function handbook() {
  const h = await plansHandbook(t, ORG, admin);
  return { ...h, plans: h.plans.id, internal: h.internal.id };
}

const textOf = (doc: unknown) => JSON.stringify(doc);

describe('getPageDocumentInRevisionById', () => {
  it("answers a page's JSON document, evaluated as GitBook's `evaluated` says, for members", async () => {
    const h = await handbook();
    const get = (extra: object = {}, as: Actor = admin) =>
      t.call(
        ops.getPageDocumentInRevisionById,
        { spaceId: h.space, revisionId: h.revision, pageId: h.plans, ...extra },
        as,
      );
    const stored = await get();
    expect(stored).toMatchObject({ object: 'document', nodes: expect.any(Array) });
    expect(textOf(stored)).toContain('Everyone reads this.');
    // As stored, the condition is there; evaluated for an anonymous visitor, it and what it hides are gone.
    expect(textOf(stored)).toContain('platypus');
    for (const evaluated of [true, 'deterministic-only'] as const) {
      const doc = textOf(await get({ evaluated, dereferenced: 'reusable-contents' }));
      expect(doc).toContain('Everyone reads this.');
      if (evaluated === true) expect(doc).not.toContain('platypus');
    }
    // The same document as `getPageInRevisionById?format=document`.
    const page = await t.call(
      ops.getPageInRevisionById,
      { spaceId: h.space, revisionId: h.revision, pageId: h.plans, format: 'document' },
      admin,
    );
    expect(page).toMatchObject({ document: stored });
  });

  it('answers 404 for an unknown page, an unknown revision and another organization', async () => {
    const h = await handbook();
    const at = (pageId: string, as: Actor = admin) =>
      failureOf(t.call(ops.getPageDocumentInRevisionById, { spaceId: h.space, revisionId: h.revision, pageId }, as));
    expect((await at('nope')).reason).toBe('not_found');
    expect((await at(h.plans, stranger)).reason).toBe('not_found');
    const unknownRevision = t.call(
      ops.getPageDocumentInRevisionById,
      { spaceId: h.space, revisionId: 'nope', pageId: h.plans },
      admin,
    );
    expect((await failureOf(unknownRevision)).reason).toBe('not_found');
  });

  it("a reader reads the live revision's pages evaluated against its claims, never a hidden page", async () => {
    const h = await handbook();
    const as = (claims?: Record<string, unknown>) => readerOf(h.space, claims);
    const get = (pageId: string, actor: Actor, extra: object = {}) =>
      t.call(ops.getPageDocumentInRevisionById, { spaceId: h.space, revisionId: h.revision, pageId, ...extra }, actor);
    // Whatever `evaluated` it asks, the condition is decided for it.
    const anonymous = textOf(await get(h.plans, as(), { evaluated: false }));
    expect(anonymous).toContain('Everyone reads this.');
    expect(anonymous).not.toMatch(/platypus|visitor/);
    expect(textOf(await get(h.plans, as({ plan: 'pro', unsigned: {} })))).toContain('platypus');
    expect((await failureOf(get(h.internal, as()))).reason).toBe('not_found');
    // A reader of another space's site does not see this one.
    expect((await failureOf(get(h.plans, readerOf('other-space')))).reason).toBe('not_found');
  });
});
