import { describe, expect, it } from 'vitest';
import { ops, type Actor, type ContentChange } from '@quire/contracts';
import { ActorSigner, DownloadSigner } from '@quire/kit';
import { failureOf, orgAdmin, pdfText, TEST_SECRET, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';

// Reusable contents (issue 42): written in a change request, merged with it (three-way), read at any revision,
// expanded in the documents that include them.

const t = useTestService(contentService, loadContentConfig, { label: 'reusable' });

const ORG = 'org-reusable';
const admin = orgAdmin(ORG);
const ADMIN_ID = 'admin-of-org-reusable';
const stranger = orgAdmin('org-elsewhere');
const sites: Actor = { kind: 'service', service: 'sites' };
const readerOf = (space: string): Actor => ({
  kind: 'reader',
  reader: { site: 'site1', organization: ORG, siteSpaces: [{ id: 'ss1', space }], claims: { unsigned: {} } },
});

const NOTE = 'Back up your data before you upgrade.\n\nThe upgrade takes a minute.\n';

const edit = (spaceId: string, crId: string | undefined, changes: ContentChange[]) =>
  editContent(t, spaceId, crId, changes, ADMIN_ID);
const ids = (spaceId: string, cr: { id: string }) => ({ spaceId, changeRequestId: cr.id });
const merge = (spaceId: string, cr: { id: string }) => t.call(ops.mergeChangeRequest, ids(spaceId, cr), admin);
const update = (spaceId: string, cr: { id: string }) => t.call(ops.updateChangeRequest, ids(spaceId, cr), admin);
const listed = async (spaceId: string, cr: { id: string }) =>
  (await t.call(ops.getRevisionOfChangeRequestById, ids(spaceId, cr), admin)).reusableContents;
const liveText = async (spaceId: string, reusableContentId: string) => {
  const { id: revisionId } = await t.call(ops.getCurrentRevision, { spaceId }, admin);
  const doc = ops.getReusableContentDocumentInRevisionById;
  return JSON.stringify(await t.call(doc, { spaceId, revisionId, reusableContentId }, admin));
};

/** A space whose live revision holds the reusable content "Upgrade note" and a page including it. */
async function spaceWithNote() {
  const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Handbook' }, admin);
  const cr = await edit(space.id, undefined, [
    { operation: 'insert_reusable_content', title: 'Upgrade note', document: { markdown: NOTE } },
  ]);
  const [note] = await listed(space.id, cr);
  const include = `Read this first.\n\n{% include "${note!.id}" %}\n\nThen upgrade.\n`;
  await edit(space.id, cr.id, [{ operation: 'insert_page', title: 'Upgrade', document: { markdown: include } }]);
  const { revision } = await merge(space.id, cr);
  const { pages } = await t.call(ops.listPages, { spaceId: space.id }, admin);
  return { spaceId: space.id, note: note!, revision, pageId: pages[0]!.id, before: cr };
}

describe('reusable contents written in a change request', () => {
  it('are created in a change request, read there, merged, then read at the merged revision and live', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Guide' }, admin);
    const cr = await edit(space.id, undefined, [
      { operation: 'insert_reusable_content', title: 'Upgrade note', document: { markdown: NOTE } },
    ]);
    const [note] = await listed(space.id, cr);
    expect(note).toMatchObject({ title: 'Upgrade note', document: expect.any(String) });
    const inCr = await t.call(
      ops.getReusableContentInChangeRequestById,
      { ...ids(space.id, cr), reusableContentId: note!.id },
      admin,
    );
    expect(inCr).toEqual(note);
    // Not live before the merge.
    const live = () => t.call(ops.getReusableContentById, { spaceId: space.id, reusableContentId: note!.id }, admin);
    expect((await failureOf(live())).message).toBe('Reusable content not found');

    const before = (await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).id;
    const { revision, result } = await merge(space.id, cr);
    expect(result).toBe('merge');
    expect(await live()).toEqual(note);
    const at = { spaceId: space.id, revisionId: revision, reusableContentId: note!.id };
    expect(await t.call(ops.getReusableContentInRevisionById, at, admin)).toEqual(note);
    const doc = await t.call(ops.getReusableContentDocumentInRevisionById, at, admin);
    expect(doc).toMatchObject({ object: 'document', nodes: expect.any(Array) });
    expect(JSON.stringify(doc)).toContain('Back up your data before you upgrade.');
    // Its document by id, as GitBook's `document` field names it.
    const byId = await t.call(ops.getDocumentById, { spaceId: space.id, documentId: note!.document! }, admin);
    expect(byId).toEqual(doc);
    // The revision before the merge has none.
    const old = t.call(ops.getReusableContentInRevisionById, { ...at, revisionId: before }, admin);
    expect((await failureOf(old)).reason).toBe('not_found');
    expect(
      (await t.call(ops.getRevisionById, { spaceId: space.id, revisionId: revision }, admin)).reusableContents,
    ).toEqual([note]);
  });

  it('are updated and deleted in a change request; an unknown one refuses the batch naming the change', async () => {
    const { spaceId, note } = await spaceWithNote();
    const cr = await edit(spaceId, undefined, [
      {
        operation: 'update_reusable_content',
        reusableContent: note.id,
        title: 'Before upgrading',
        document: { markdown: 'Stop the server.\n' },
      },
    ]);
    const [edited] = await listed(spaceId, cr);
    expect(edited).toMatchObject({ id: note.id, title: 'Before upgrading' });
    expect(edited!.document).not.toBe(note.document);
    const wrong = await failureOf(
      edit(spaceId, cr.id, [{ operation: 'delete_reusable_content', reusableContent: 'nope' }]),
    );
    expect(wrong.message).toBe(
      'Invalid request: changes.0.reusableContent: no reusable content "nope" in the change request',
    );
    await edit(spaceId, cr.id, [{ operation: 'delete_reusable_content', reusableContent: note.id }]);
    expect(await listed(spaceId, cr)).toEqual([]);
    expect((await merge(spaceId, cr)).result).toBe('merge');
    expect((await t.call(ops.getCurrentRevision, { spaceId }, admin)).reusableContents).toEqual([]);
  });
});

describe('a duplicated space', () => {
  it('keeps the reusable contents its pages include', async () => {
    const { spaceId, note } = await spaceWithNote();
    const copy = await t.call(ops.duplicateSpace, { spaceId }, admin);
    expect((await t.call(ops.getCurrentRevision, { spaceId: copy.id }, admin)).reusableContents).toEqual([note]);
  });
});

describe('a page including a reusable content', () => {
  it('holds a reusable-content block; `dereferenced` expands it in place, as the published site receives it', async () => {
    const { spaceId, revision, pageId } = await spaceWithNote();
    const get = (extra: object = {}) =>
      t.call(ops.getPageDocumentInRevisionById, { spaceId, revisionId: revision, pageId, ...extra }, admin);
    const stored = JSON.stringify(await get());
    expect(stored).toContain('"type":"reusable-content"');
    expect(stored).not.toContain('Back up your data');
    for (const dereferenced of [true, 'reusable-contents'] as const) {
      const doc = JSON.stringify(await get({ dereferenced }));
      expect(doc).not.toContain('"type":"reusable-content"');
      expect(doc.indexOf('Read this first.')).toBeLessThan(doc.indexOf('Back up your data before you upgrade.'));
      expect(doc.indexOf('Back up your data before you upgrade.')).toBeLessThan(doc.indexOf('Then upgrade.'));
    }
    // What the sites service renders (and serves as `.md`, searches for answers): expanded too.
    const asked = { spaceId, revisionId: revision, pageIds: [pageId] };
    const [published] = (await t.call(ops.listPublishedPageDocuments, { ...asked, format: 'document' }, sites)).items;
    expect(JSON.stringify(published!.document)).toContain('Back up your data before you upgrade.');
    const [markdown] = (await t.call(ops.listPublishedPageDocuments, { ...asked, format: 'markdown' }, sites)).items;
    expect(markdown!.markdown).toContain('Back up your data before you upgrade.');
    expect(markdown!.markdown).not.toContain('{% include');
  });

  it("is printed in the space's PDF with the reusable content in place", async () => {
    const { spaceId } = await spaceWithNote();
    const { url } = await t.call(ops.getSpacePDF, { spaceId }, admin);
    const claims = await new DownloadSigner(TEST_SECRET).verifyDownload(url.split('/v1/downloads/')[1]!);
    if (typeof claims !== 'object' || claims.key === undefined) throw new Error(`no PDF rendered behind ${url}`);
    const actorHeader = (await new ActorSigner(TEST_SECRET).sign({ kind: 'service', service: 'gateway' })).header;
    const blob = await t.svc.invoker.readBlob(claims.key, { actorHeader });
    const text = (await pdfText(blob!.bytes)).text.replace(/\s+/g, ' ');
    expect(text).toContain('Read this first. Back up your data before you upgrade.');
    expect(text).toContain('The upgrade takes a minute. Then upgrade.');
    expect(text).not.toContain('not included in this export');
  });

  it("a reader reads the live revision's reusable contents; another organization is told 404", async () => {
    const { spaceId, note, revision } = await spaceWithNote();
    const reader = readerOf(spaceId);
    expect(await t.call(ops.getReusableContentById, { spaceId, reusableContentId: note.id }, reader)).toEqual(note);
    const at = { spaceId, revisionId: revision, reusableContentId: note.id };
    expect(JSON.stringify(await t.call(ops.getReusableContentDocumentInRevisionById, at, reader))).toContain('Back up');
    expect(
      (await failureOf(t.call(ops.getReusableContentById, { spaceId, reusableContentId: note.id }, stranger))).reason,
    ).toBe('not_found');
    expect(
      (await failureOf(t.call(ops.getReusableContentById, { spaceId, reusableContentId: note.id }, readerOf('other'))))
        .reason,
    ).toBe('not_found');
  });
});

describe('merging reusable contents (three-way, as pages)', () => {
  const setNote = (id: string, markdown: string): ContentChange => ({
    operation: 'update_reusable_content',
    reusableContent: id,
    document: { markdown },
  });

  it('merges changes to different blocks; the same block changed on both sides is a conflict that never reaches main', async () => {
    const { spaceId, note } = await spaceWithNote();
    const a = await edit(spaceId, undefined, [
      setNote(note.id, NOTE.replace('Back up your data', 'Back up the database')),
    ]);
    const b = await edit(spaceId, undefined, [setNote(note.id, NOTE.replace('a minute', 'two minutes'))]);
    const c = await edit(spaceId, undefined, [
      setNote(note.id, NOTE.replace('Back up your data', 'Snapshot the disk')),
    ]);
    expect((await merge(spaceId, a)).result).toBe('merge');
    expect((await merge(spaceId, b)).result).toBe('merge');
    const merged = await liveText(spaceId, note.id);
    expect(merged).toContain('Back up the database before you upgrade.');
    expect(merged).toContain('The upgrade takes two minutes.');

    // c changed the block a changed: the merge is refused, main keeps what it had.
    const main = (await t.call(ops.getCurrentRevision, { spaceId }, admin)).id;
    expect(await merge(spaceId, c)).toEqual({ revision: main, result: 'conflicts' });
    expect((await t.call(ops.getCurrentRevision, { spaceId }, admin)).id).toBe(main);
    expect(await liveText(spaceId, note.id)).toBe(merged);

    // An update writes both sides into the reusable content as a conflict block; merging is refused until resolved.
    expect((await update(spaceId, c)).result).toBe('conflicts');
    const inC = await t.call(
      ops.getReusableContentInChangeRequestById,
      { ...ids(spaceId, c), reusableContentId: note.id },
      admin,
    );
    const withBoth = JSON.stringify(await t.call(ops.getDocumentById, { spaceId, documentId: inC.document! }, admin));
    expect(withBoth).toContain('Back up the database before you upgrade.');
    expect(withBoth).toContain('Snapshot the disk before you upgrade.');
    const refused = await failureOf(merge(spaceId, c));
    expect(refused.reason).toBe('conflict');
    expect(refused.message).toMatch(/unresolved conflicts in the reusable contents "Upgrade note"/);
    await edit(spaceId, c.id, [
      setNote(note.id, 'Snapshot the disk before you upgrade.\n\nThe upgrade takes two minutes.\n'),
    ]);
    expect((await merge(spaceId, c)).result).toBe('merge');
    expect(await liveText(spaceId, note.id)).toContain('Snapshot the disk before you upgrade.');
  });

  it('a reusable content deleted on one side and edited on the other is kept as edited', async () => {
    const { spaceId, note } = await spaceWithNote();
    const gone = await edit(spaceId, undefined, [{ operation: 'delete_reusable_content', reusableContent: note.id }]);
    const edited = await edit(spaceId, undefined, [setNote(note.id, 'Stop the server first.\n')]);
    expect((await merge(spaceId, gone)).result).toBe('merge');
    expect((await merge(spaceId, edited)).result).toBe('merge');
    expect(await liveText(spaceId, note.id)).toContain('Stop the server first.');
  });
});
