import { describe, expect, it } from 'vitest';
import { apiError, changeRequestWith, mergeChanges, useCast } from './harness.ts';
import { CLIENT_JSON_DOCUMENT } from '@quire/document/testing';

const { p, acme, reader, other } = useCast({ reader: ['rita@acme.io', 'read'] });

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function spaceWithChangeRequest(title: string) {
  const api = p.client(acme.token);
  const space = (await api.orgs.createSpace(acme.organization.id, { title })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: `Edit ${title}` })).data;
  return { api, space, cr };
}

describe('content through change requests (official client)', () => {
  it('writes pages and files in a change request, reads them there and not in main, merges, reads them in main', async () => {
    const { api, space, cr } = await spaceWithChangeRequest('Handbook');
    const written = await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', ref: 'guides', document: { markdown: '# Guides\n\nAll the guides.\n' } },
        {
          operation: 'insert_page',
          into: 'guides',
          title: 'Setup',
          document: { markdown: 'Install it:\n\n```sh\nnpm ci\n```\n\nSee [the guides](./guides.md).\n' },
        },
        { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG_1x1 }] },
      ],
    } as never);
    expect(written.status).toBe(200);
    expect(written.data).toMatchObject({ id: cr.id, object: 'change-request' });
    expect((written.data as { revision: string }).revision).not.toBe(space.revision);

    const { pages } = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data;
    expect(pages.map((pg) => [pg.title, pg.type, 'path' in pg ? pg.path : undefined])).toEqual([
      ['Guides', 'document', 'guides'],
    ]);
    const guides = pages[0]! as { id: string; pages: { id: string; title: string; path: string }[] };
    expect(guides.pages.map((c) => [c.title, c.path])).toEqual([['Setup', 'guides/setup']]);
    const setup = (
      await api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guides/setup', { format: 'markdown' })
    ).data as { id: string; markdown: string };
    expect(setup.id).toBe(guides.pages[0]!.id);
    expect(setup.markdown).toContain('npm ci');
    expect(setup.markdown).toContain(`[the guides](/pages/${guides.id})`);
    const byId = (await api.spaces.getPageInChangeRequestById(space.id, cr.id, guides.id, { format: 'markdown' }))
      .data as { markdown: string; title: string };
    expect(byId).toMatchObject({ title: 'Guides' });
    expect(byId.markdown.trim()).toBe('All the guides.');
    const files = (await api.spaces.listFilesInChangeRequestById(space.id, cr.id)).data;
    expect(files.items).toEqual([
      expect.objectContaining({
        name: 'dot.png',
        contentType: 'image/png',
        size: 70,
        dimensions: { width: 1, height: 1 },
      }),
    ]);
    const download = await fetch(files.items[0]!.downloadURL.replace('http://quire.test', p.url));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).toString('base64')).toBe(PNG_1x1);

    // Not in main until merged.
    expect((await api.spaces.listPages(space.id)).data.pages).toEqual([]);
    expect(await apiError(api.spaces.getPageByPath(space.id, 'guides/setup'))).toMatchObject({ code: 404 });

    const merged = await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect(merged.data).toEqual({ revision: expect.any(String), result: 'merge' });
    const after = (await api.spaces.getSpaceById(space.id)).data;
    expect(after.revision).toBe(merged.data.revision);
    expect(
      ((await api.spaces.getPageByPath(space.id, 'guides/setup', { format: 'markdown' })).data as { markdown: string })
        .markdown,
    ).toContain('npm ci');
    const revision = (await api.spaces.getCurrentRevision(space.id)).data;
    expect(revision).toMatchObject({
      object: 'revision',
      id: merged.data.revision,
      type: 'merge',
      parents: [space.revision, (written.data as { revision: string }).revision],
    });
    expect(revision.files.map((f) => f.name)).toEqual(['dot.png']);
    // The JSON document form, and a duplicate carrying the pages.
    const asDocument = (await api.spaces.getPageById(space.id, setup.id, { format: 'document' })).data as {
      document: { object: string; nodes: { type: string }[] };
    };
    expect(asDocument.document.object).toBe('document');
    expect(asDocument.document.nodes.map((n) => n.type)).toEqual(expect.arrayContaining(['paragraph', 'code']));
    const copy = (await api.spaces.duplicateSpace(space.id)).data;
    expect(
      ((await api.spaces.getPageByPath(copy.id, 'guides/setup', { format: 'markdown' })).data as { markdown: string })
        .markdown,
    ).toContain('npm ci');
    expect((await api.spaces.listFiles(copy.id)).data.items.map((f) => f.name)).toEqual(['dot.png']);
    const mergedCr = (await api.spaces.getChangeRequestById(space.id, cr.id)).data;
    expect(mergedCr).toMatchObject({
      status: 'merged',
      revisionMerged: merged.data.revision,
      mergedBy: { id: acme.user.id },
    });
    expect((await api.spaces.getSpaceById(space.id)).data).toMatchObject({
      changeRequests: 1,
      changeRequestsDraft: 0,
      changeRequestsOpen: 0,
    });
    expect(
      await apiError(
        api.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [{ operation: 'delete_page', page: guides.id }],
        } as never),
      ),
    ).toMatchObject({ code: 409 });
  });

  it('merges two change requests editing different lines of one page cleanly, and keeps both texts on the same line', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Shared' })).data;
    await mergeChanges(api, space.id, [
      { operation: 'insert_page', title: 'Notes', document: { markdown: 'line one\n\nline two\n\nline three\n' } },
    ]);
    const page = (await api.spaces.listPages(space.id)).data.pages[0]!;

    const edit = (markdown: string) =>
      changeRequestWith(api, space.id, [{ operation: 'update_page', page: page.id, document: { markdown } }]);
    const a = await edit('line ONE\n\nline two\n\nline three\n');
    const b = await edit('line one\n\nline two\n\nline THREE\n');
    expect((await api.spaces.getChangeRequestById(space.id, b.id)).data.outdated).toBe(false);
    expect((await api.spaces.mergeChangeRequest(space.id, a.id)).data.result).toBe('merge');
    expect((await api.spaces.getChangeRequestById(space.id, b.id)).data.outdated).toBe(true);
    expect((await api.spaces.mergeChangeRequest(space.id, b.id)).data.result).toBe('merge');
    const text = (
      (await api.spaces.getPageById(space.id, page.id, { format: 'markdown' })).data as { markdown: string }
    ).markdown;
    expect(text).toContain('line ONE');
    expect(text).toContain('line THREE');

    // C and D both change the first line from the same main: C merges cleanly, D then conflicts and main is
    // left as C made it (see conflicts.e2e.test.ts).
    const c = await edit('line one from C\n\nline two\n\nline THREE\n');
    const d = await edit('line one from D\n\nline two\n\nline THREE\n');
    expect((await api.spaces.mergeChangeRequest(space.id, c.id)).data.result).toBe('merge');
    expect((await api.spaces.mergeChangeRequest(space.id, d.id)).data.result).toBe('conflicts');
    const live = (
      (await api.spaces.getPageById(space.id, page.id, { format: 'markdown' })).data as { markdown: string }
    ).markdown;
    expect(live).toBe('line one from C\n\nline two\n\nline THREE\n');
    expect((await api.spaces.getChangeRequestChanges(space.id, d.id)).data.changes).toEqual([
      expect.objectContaining({ page: expect.objectContaining({ id: page.id, conflicted: true }) }),
    ]);

    // An update brings main into a change request; a conflict is kept in it and marked in its changes.
    const e = await edit('line one from E\n\nline two\n\nline THREE\n');
    const f = await edit('line one from F\n\nline two\n\nline THREE\n');
    await api.spaces.mergeChangeRequest(space.id, e.id);
    const updated = await api.spaces.updateChangeRequest(space.id, f.id);
    expect(updated.data.result).toBe('conflicts');
    const changes = (await api.spaces.getChangeRequestChanges(space.id, f.id)).data;
    expect(changes.changes).toEqual([
      expect.objectContaining({
        type: 'page_edited',
        page: expect.objectContaining({ id: page.id, conflicted: true }),
      }),
    ]);
    expect((await api.spaces.getChangeRequestById(space.id, f.id)).data).toMatchObject({
      outdated: false,
      revisionMergedAncestor: expect.any(String),
    });
  });

  it('serializes merges racing into one space: no merge is lost, each builds on the one before', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Racing' })).data;
    const crs = [];
    for (const title of ['Alpha', 'Beta', 'Gamma']) {
      const cr = await changeRequestWith(api, space.id, [
        { operation: 'insert_page', title, document: { markdown: `${title} text` } },
      ]);
      crs.push(cr);
    }
    const merged = await Promise.all(crs.map((cr) => api.spaces.mergeChangeRequest(space.id, cr.id)));
    expect(merged.map((m) => m.data.result)).toEqual(['merge', 'merge', 'merge']);
    expect((await api.spaces.listPages(space.id)).data.pages.map((pg) => pg.title).sort()).toEqual([
      'Alpha',
      'Beta',
      'Gamma',
    ]);
    // The merge revisions form one chain from the space's first revision: each has the previous as first parent.
    const revisions = await Promise.all(merged.map((m) => api.spaces.getRevisionById(space.id, m.data.revision)));
    const firstParents = new Set(revisions.map((r) => r.data.parents[0]));
    const ids = new Set(revisions.map((r) => r.data.id));
    expect(firstParents.has(space.revision)).toBe(true);
    expect([...firstParents].filter((id) => id !== undefined && ids.has(id))).toHaveLength(2);
    expect((await api.spaces.getSpaceById(space.id)).data.revision).toSatisfy(
      (id: string) => ids.has(id) && !firstParents.has(id),
    );
  });

  it('brings a page created in main into an outdated change request with update', async () => {
    const { api, space, cr } = await spaceWithChangeRequest('Updates');
    await mergeChanges(api, space.id, [
      { operation: 'insert_page', title: 'From main', document: { markdown: 'hello' } },
    ]);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.outdated).toBe(true);
    expect((await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages).toEqual([]);
    const res = (await api.spaces.updateChangeRequest(space.id, cr.id)).data;
    expect(res.result).toBe('update');
    expect((await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages.map((pg) => pg.title)).toEqual([
      'From main',
    ]);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.outdated).toBe(false);
  });

  it('reverts pages to the change request’s base or to a named revision, and refuses an unknown revision', async () => {
    const { api, space, cr } = await spaceWithChangeRequest('Reverts');
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: 'Alpha one.\n' } },
        { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: 'Beta one.\n' } },
      ],
    } as never);
    expect((await api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    const first = (await api.spaces.getSpaceById(space.id)).data.revision;
    const byTitle = async (crId: string) =>
      new Map((await api.spaces.listPagesInChangeRequest(space.id, crId)).data.pages.map((pg) => [pg.title, pg]));
    const ids = await byTitle(cr.id);
    const [alpha, beta] = [ids.get('Alpha')!.id, ids.get('Beta')!.id];
    const markdownOf = async (crId: string, pageId: string) =>
      (
        (await api.spaces.getPageInChangeRequestById(space.id, crId, pageId, { format: 'markdown' })).data as {
          markdown: string;
        }
      ).markdown.trim();

    // A second change request edits Alpha, deletes Beta and adds Gamma under Alpha; reverting each undoes it.
    const edit = await changeRequestWith(
      api,
      space.id,
      [
        { operation: 'update_page', page: alpha, title: 'Alpha two', document: { markdown: 'Alpha two.\n' } },
        { operation: 'delete_page', page: beta },
        { operation: 'insert_page', ref: 'g', into: alpha, title: 'Gamma', document: { markdown: 'Gamma.\n' } },
      ],
      'Undo',
    );
    const gamma = (await byTitle(edit.id)).get('Alpha two')!;
    const gammaId = (gamma as unknown as { pages: { id: string }[] }).pages[0]!.id;
    await api.spaces.updateChangeRequestContent(space.id, edit.id, {
      changes: [
        { operation: 'revert_page', page: alpha },
        { operation: 'revert_page', page: beta },
        { operation: 'revert_page', page: gammaId },
      ],
    } as never);
    const reverted = await byTitle(edit.id);
    expect([...reverted.keys()].sort()).toEqual(['Alpha', 'Beta']);
    expect((reverted.get('Alpha') as unknown as { pages: unknown[] }).pages).toEqual([]);
    expect(await markdownOf(edit.id, alpha)).toBe('Alpha one.');
    expect(await markdownOf(edit.id, beta)).toBe('Beta one.');

    // To a named revision: main's first one, before a later merge changed Alpha again.
    await api.spaces.updateChangeRequestContent(space.id, edit.id, {
      changes: [{ operation: 'update_page', page: alpha, document: { markdown: 'Alpha three.\n' } }],
    } as never);
    expect((await api.spaces.mergeChangeRequest(space.id, edit.id)).data.result).toBe('merge');
    const back = await changeRequestWith(
      api,
      space.id,
      [{ operation: 'revert_page', page: alpha, revision: first }],
      'Back',
    );
    expect(await markdownOf(back.id, alpha)).toBe('Alpha one.');
    const unknown = await apiError(
      api.spaces.updateChangeRequestContent(space.id, back.id, {
        changes: [{ operation: 'revert_page', page: alpha, revision: 'no-such-revision' }],
      } as never),
    );
    expect(unknown.code).toBe(400);
    expect(unknown.message).toContain('changes.0.revision');
  });

  it('takes a JSON document as input and gives it back as markdown', async () => {
    const { api, space, cr } = await spaceWithChangeRequest('Json');
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'insert_page', title: 'From JSON', document: { document: CLIENT_JSON_DOCUMENT } }],
    } as never);
    const page = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages[0]!;
    const markdown = (
      (await api.spaces.getPageInChangeRequestById(space.id, cr.id, page.id, { format: 'markdown' })).data as {
        markdown: string;
      }
    ).markdown;
    expect(markdown).toContain('# Title');
    expect(markdown).toContain('Hello **world**');
  });

  it('refuses invalid batches whole, with the change index and field named', async () => {
    const { api, space, cr } = await spaceWithChangeRequest('Strict');
    const insert = (title: string) => ({ operation: 'insert_page', title, document: { markdown: 'x' } });
    expect(
      await apiError(
        api.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [insert('ok'), { operation: 'insert_page', into: 'nope', document: {} }],
        } as never),
      ),
    ).toMatchObject({
      code: 400,
      message: 'Invalid request: changes.1.into: no page "nope" in the change request',
    });
    expect((await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages).toEqual([]);
    expect(
      await apiError(
        api.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: Array.from({ length: 51 }, () => insert('x')),
        } as never),
      ),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^Invalid request: changes: Too big/) });
    expect(
      await apiError(
        api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'explode_page' }] } as never),
      ),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^Invalid request: changes\.0/) });
    expect(
      await apiError(
        api.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [insert('A'), { ...insert('B'), slug: 'a' }],
        } as never),
      ),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^Invalid request: changes\.1\.slug/) });
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    expect(
      await apiError(
        api.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [
            {
              operation: 'insert_files',
              files: [{ name: 'big.bin', contentType: 'application/octet-stream', base64: big }],
            },
          ],
        } as never),
      ),
    ).toMatchObject({ code: 400 });
  });

  it('keeps readers, locked spaces and other organizations out', async () => {
    const { api, space, cr } = await spaceWithChangeRequest('Guarded');
    const change = { changes: [{ operation: 'insert_page', title: 'x', document: { markdown: 'x' } }] } as never;
    const asReader = p.client(reader.token);
    expect((await asReader.spaces.listPagesInChangeRequest(space.id, cr.id)).status).toBe(200);
    expect(await apiError(asReader.spaces.updateChangeRequestContent(space.id, cr.id, change))).toMatchObject({
      code: 403,
    });
    expect(await apiError(asReader.spaces.mergeChangeRequest(space.id, cr.id))).toMatchObject({
      code: 403,
      message: 'Merging change requests needs the `review` role on the space',
    });
    const asOther = p.client(other.token);
    expect(await apiError(asOther.spaces.listPagesInChangeRequest(space.id, cr.id))).toMatchObject({ code: 404 });
    expect(await apiError(asOther.spaces.listPages(space.id))).toMatchObject({ code: 404 });
    expect(await apiError(asOther.spaces.mergeChangeRequest(space.id, cr.id))).toMatchObject({ code: 404 });
    // A revision is read through its own space only, also once its tree is cached by an earlier read.
    const crRevision = (await api.spaces.getRevisionOfChangeRequestById(space.id, cr.id)).data.id;
    expect((await api.spaces.getRevisionById(space.id, crRevision)).status).toBe(200);
    const elsewhere = (await api.orgs.createSpace(acme.organization.id, { title: 'Elsewhere' })).data;
    expect(await apiError(api.spaces.getRevisionById(elsewhere.id, crRevision))).toMatchObject({ code: 404 });
    expect(await apiError(api.spaces.listPagesInRevisionById(elsewhere.id, crRevision))).toMatchObject({ code: 404 });
    await api.spaces.updateSpaceById(space.id, { editMode: 'locked' } as never);
    expect(await apiError(api.spaces.updateChangeRequestContent(space.id, cr.id, change))).toMatchObject({
      code: 409,
      message: expect.stringMatching(/locked/),
    });
    expect(await apiError(api.spaces.mergeChangeRequest(space.id, cr.id))).toMatchObject({
      code: 409,
      message: expect.stringMatching(/locked/),
    });
  });
});
