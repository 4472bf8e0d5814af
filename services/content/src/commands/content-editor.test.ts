import { describe, expect, it } from 'vitest';
import type { ContentChange } from '@quire/contracts';
import { sql } from '@quire/kit';
import { buildSpace, failureOf, png, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { ChangeRequest, mergeBaseOf } from '../modules/change-requests/change-request.entity.ts';
import { documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import type { RevisionTree } from '../modules/revisions/revision-tree.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { changeRequestCreator } from './change-request-writer.ts';
import { contentEditor, MAX_FILE_BYTES } from './content-editor.ts';

const ORG = 'edits';
const USER = 'writer-1';
const t = useTestService(contentService, loadContentConfig, { label: 'content-editor' });

interface EditOptions {
  /** The change request to edit (a new draft when omitted). */
  crId?: string;
  locked?: boolean;
  fetchFile?: (url: string) => Promise<{ bytes: Buffer; contentType: string | undefined }>;
}

/** The command in one transaction, as the operation runs it (revert targets are the space's revisions). */
function edit(spaceId: string, changes: ContentChange[], opts: EditOptions = {}) {
  return t.em().transactional(async (tx) => {
    const space = await tx.findOneOrFail(Space, { id: spaceId });
    if (opts.locked) space.editMode = 'locked';
    const changeRequest = opts.crId
      ? await tx.findOneOrFail(ChangeRequest, { id: opts.crId })
      : await changeRequestCreator(tx, { space, createdBy: USER });
    const head = await revisionRepository.treeInSpace(tx, spaceId, changeRequest.revisionId);
    return contentEditor(tx, {
      space,
      changeRequest,
      head,
      changes,
      userId: USER,
      blobs: t.svc.deps.blobs,
      revertTarget: (id) => revisionRepository.treeInSpace(tx, spaceId, id ?? mergeBaseOf(changeRequest)),
      fetchFile: opts.fetchFile ?? (() => Promise.reject(new Error('no network here'))),
    });
  });
}

const treeOf = async (crId: string): Promise<RevisionTree> => {
  const cr = await t.em().findOneOrFail(ChangeRequest, { id: crId });
  return revisionRepository.treeInSpace(t.em(), cr.spaceId, cr.revisionId);
};
const byTitle = (tree: RevisionTree, title: string) => [...tree.pages.values()].find((p) => p.title === title)!;
const titlesUnder = (tree: RevisionTree, parentId: string | null) =>
  [...tree.pages.values()]
    .filter((p) => p.parentId === parentId)
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    .map((p) => p.title);
const messageOf = async (p: Promise<unknown>) => {
  const err = await failureOf(p);
  return { reason: err.reason, message: err.message };
};

describe('contentEditor', () => {
  it('writes one revision for the batch: pages, their documents, slugs, refs, the author as contributor, one event', async () => {
    const space = await buildSpace(t, { org: ORG });
    const cr = await edit(space.id, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'See [setup](./setup.md).\n' } },
      { operation: 'insert_page', ref: 'setup', into: 'guide', document: { markdown: '# Set up\n\nInstall it.\n' } },
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Another.\n' } },
      { operation: 'insert_page', into: 'guide', at: 0, title: 'First', slug: 'first-one', document: {} },
    ]);
    expect(cr.revisionId).not.toBe(cr.revisionInitial);
    const tree = await treeOf(cr.id);
    const guide = tree.pages.get([...tree.pages.values()].find((p) => p.slug === 'guide')!.id)!;
    const setup = byTitle(tree, 'Set up');
    // The title from the document's first heading; a generated slug made unique among siblings; `at` honoured.
    expect(setup).toMatchObject({ parentId: guide.id, slug: 'set-up' });
    expect(titlesUnder(tree, null)).toEqual(['Guide', 'Guide']);
    expect(
      [...tree.pages.values()]
        .filter((p) => p.parentId === null)
        .map((p) => p.slug)
        .sort(),
    ).toEqual(['guide', 'guide-2']);
    expect(titlesUnder(tree, guide.id)).toEqual(['First', 'Set up']);
    expect(byTitle(tree, 'First').slug).toBe('first-one');
    // The ref of the batch became a link to the page's id, in the stored document.
    const markdown = await documentRepository.get(t.em(), guide.documentHash!);
    expect(markdown).toContain(setup.id);
    expect(markdown).not.toContain('./setup.md');
    // A page without a document stores none.
    expect(byTitle(tree, 'First').documentHash).toBeNull();

    const contributors = await sql<{ user_id: string }>(
      t.em(),
      'select user_id from :schema.change_request_contributor where change_request_id = ?',
      [cr.id],
    );
    expect(contributors.map((c) => c.user_id)).toEqual([USER]);
    const updated = (await t.outboxEvents('change-request.updated')).filter(
      (e) => (e.data as { changeRequest: string }).changeRequest === cr.id,
    );
    expect(updated.map((e) => (e.data as { fields: string[] }).fields)).toEqual([['content']]);
  });

  it('updates, moves and deletes pages (a deletion takes the sub-pages with it)', async () => {
    const space = await buildSpace(t, { org: ORG });
    const cr = await edit(space.id, [
      { operation: 'insert_page', ref: 'a', title: 'A', document: {} },
      { operation: 'insert_page', ref: 'b', title: 'B', document: {} },
      { operation: 'insert_page', ref: 'a1', into: 'a', title: 'A1', document: {} },
      { operation: 'insert_page', into: 'a1', title: 'A1x', document: {} },
    ]);
    let tree = await treeOf(cr.id);
    const [a, b, a1] = ['A', 'B', 'A1'].map((title) => byTitle(tree, title).id) as [string, string, string];
    await edit(
      space.id,
      [
        { operation: 'update_page', page: b, title: 'B2', hidden: true, into: a, at: 0 },
        { operation: 'delete_page', page: a1 },
      ],
      { crId: cr.id },
    );
    tree = await treeOf(cr.id);
    expect(byTitle(tree, 'B2')).toMatchObject({ id: b, parentId: a, hidden: true });
    expect(titlesUnder(tree, a)).toEqual(['B2']);
    expect([...tree.pages.values()].map((p) => p.title).sort()).toEqual(['A', 'B2']);
  });

  it('refuses the whole batch with a 400 naming the change and the field, writing nothing', async () => {
    const space = await buildSpace(t, { org: ORG });
    const cr = await edit(space.id, [
      { operation: 'insert_page', ref: 'p', title: 'Parent', slug: 'parent', document: {} },
      { operation: 'insert_page', into: 'p', title: 'Child', document: {} },
    ]);
    const tree = await treeOf(cr.id);
    const parent = byTitle(tree, 'Parent').id;
    const child = byTitle(tree, 'Child').id;
    const refusals: [ContentChange[], string][] = [
      [
        [
          { operation: 'insert_page', title: 'X', document: {} },
          { operation: 'update_page', page: 'nope', title: 'Y' },
        ],
        'Invalid request: changes.1.page: no page "nope" in the change request',
      ],
      [
        [{ operation: 'insert_page', into: 'nowhere', title: 'X', document: {} }],
        'Invalid request: changes.0.into: no page "nowhere" in the change request',
      ],
      [
        [
          { operation: 'insert_page', ref: 'r', title: 'X', document: {} },
          { operation: 'insert_page', ref: 'r', title: 'Y', document: {} },
        ],
        'Invalid request: changes.1.ref: used twice in the batch',
      ],
      [
        [{ operation: 'update_page', page: parent, into: child }],
        'Invalid request: changes.0.into: a page cannot move into itself or one of its sub-pages',
      ],
      [
        [{ operation: 'update_page', page: parent, into: parent }],
        'Invalid request: changes.0.into: a page cannot move into itself or one of its sub-pages',
      ],
      [
        [{ operation: 'insert_page', title: 'Other', slug: 'parent', document: {} }],
        'Invalid request: changes.0.slug: "parent" is already the slug of a sibling page at the top level',
      ],
      [
        [{ operation: 'insert_files', files: [{ name: 'a.bin', base64: 'not base64!' }] }],
        'Invalid request: changes.0.files.0.base64: not base64',
      ],
      [
        [{ operation: 'revert_page', page: 'ghost' }],
        'Invalid request: changes.0.page: no page "ghost" in the change request or the revision',
      ],
      [
        [{ operation: 'revert_page', page: parent, revision: 'no-such-revision' }],
        'Invalid request: changes.0.revision: no revision "no-such-revision" in the space',
      ],
    ];
    for (const [changes, message] of refusals)
      expect(await messageOf(edit(space.id, changes, { crId: cr.id })), message).toEqual({
        reason: 'invalid_input',
        message,
      });
    const after = await t.em().findOneOrFail(ChangeRequest, { id: cr.id });
    expect(after.revisionId).toBe(cr.revisionId);
    expect([...(await treeOf(cr.id)).pages.values()].map((p) => p.title).sort()).toEqual(['Child', 'Parent']);
  });

  it('stores files: an image measured and typed from its bytes, one past the size limit refused, a failed fetch named', async () => {
    const space = await buildSpace(t, { org: ORG });
    const image = png(3, 2);
    const cr = await edit(
      space.id,
      [
        { operation: 'insert_files', files: [{ name: 'dot.png', base64: image.toString('base64') }] },
        {
          operation: 'insert_files',
          files: [{ name: 'remote.txt', url: 'https://files.example/remote.txt' }],
        },
      ],
      {
        fetchFile: async () => ({ bytes: Buffer.from('hello'), contentType: 'text/plain' }),
      },
    );
    const files = [...(await treeOf(cr.id)).files.values()].sort((a, b) => a.name.localeCompare(b.name));
    expect(
      files.map(({ name, contentType, size, width, height }) => ({ name, contentType, size, width, height })),
    ).toEqual([
      { name: 'dot.png', contentType: 'image/png', size: image.length, width: 3, height: 2 },
      { name: 'remote.txt', contentType: 'text/plain', size: 5, width: null, height: null },
    ]);
    expect((await t.svc.deps.blobs.get(files[0]!.blobKey)) !== null).toBe(true);

    const big = Buffer.alloc(MAX_FILE_BYTES + 1, 1).toString('base64');
    expect(
      await messageOf(
        edit(space.id, [{ operation: 'insert_files', files: [{ name: 'big', base64: big }] }], { crId: cr.id }),
      ),
    ).toEqual({
      reason: 'invalid_input',
      message: `Invalid request: changes.0.files.0: larger than ${MAX_FILE_BYTES} bytes`,
    });
    expect(
      await messageOf(
        edit(space.id, [{ operation: 'insert_files', files: [{ name: 'x', url: 'https://files.example/x' }] }], {
          crId: cr.id,
        }),
      ),
    ).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: changes.0.files.0.url: could not be fetched (no network here)',
    });
  });

  it('reverts a page: to a revision it had (its fields back), or away when the revision has no such page', async () => {
    const space = await buildSpace(t, { org: ORG });
    const cr = await edit(space.id, [{ operation: 'insert_page', title: 'Old title', document: {} }]);
    const first = cr.revisionId;
    const id = byTitle(await treeOf(cr.id), 'Old title').id;
    await edit(space.id, [{ operation: 'update_page', page: id, title: 'New title' }], { crId: cr.id });
    await edit(space.id, [{ operation: 'revert_page', page: id, revision: first }], { crId: cr.id });
    expect([...(await treeOf(cr.id)).pages.values()].map((p) => p.title)).toEqual(['Old title']);
    // Without a revision: the change request's base, where the page did not exist yet.
    await edit(space.id, [{ operation: 'revert_page', page: id }], { crId: cr.id });
    expect((await treeOf(cr.id)).pages.size).toBe(0);
  });

  it('refuses to edit a locked space or a merged change request (409)', async () => {
    const space = await buildSpace(t, { org: ORG });
    const cr = await edit(space.id, [{ operation: 'insert_page', title: 'Before', document: {} }]);
    expect(
      await messageOf(
        edit(space.id, [{ operation: 'insert_page', title: 'X', document: {} }], { crId: cr.id, locked: true }),
      ),
    ).toEqual({ reason: 'conflict', message: 'The space is locked (editMode `locked`): its content cannot change' });
    await t.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: 'merged' });
    expect(
      await messageOf(edit(space.id, [{ operation: 'insert_page', title: 'X', document: {} }], { crId: cr.id })),
    ).toEqual({
      reason: 'conflict',
      message: 'The change request is merged: it can no longer change',
    });
    expect([...(await treeOf(cr.id)).pages.values()].map((p) => p.title)).toEqual(['Before']);
  });
});
