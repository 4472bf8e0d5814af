import { describe, expect, it } from 'vitest';
import { apiError, changeRequestWith, mergeChanges, useCast } from './harness.ts';

const { p, acme } = useCast({});

const TEXT = 'Install it.\n\n| Service | Port |\n| - | - |\n| web | 80 |\n| api | 8080 |\n\nRun it.\n';

describe('merge conflicts through the official client', () => {
  it('a conflicting merge leaves main untouched; update records a conflict block; merge waits until it is resolved', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Ops' })).data;
    await mergeChanges(api, space.id, [{ operation: 'insert_page', title: 'Ports', document: { markdown: TEXT } }]);
    const page = (await api.spaces.listPages(space.id)).data.pages[0]!;
    const edit = (port: string) =>
      changeRequestWith(api, space.id, [
        { operation: 'update_page', page: page.id, document: { markdown: TEXT.replace('| 80 |', `| ${port} |`) } },
      ]);
    const markdown = async (crId?: string) =>
      (
        (crId
          ? await api.spaces.getPageInChangeRequestById(space.id, crId, page.id, { format: 'markdown' })
          : await api.spaces.getPageById(space.id, page.id, { format: 'markdown' })
        ).data as { markdown: string }
      ).markdown;

    const a = await edit('8000');
    const b = await edit('443');
    expect((await api.spaces.mergeChangeRequest(space.id, a.id)).data.result).toBe('merge');
    const main = (await api.spaces.getSpaceById(space.id)).data.revision;
    const live = await markdown();

    // B conflicts: main is untouched, B is marked conflicting and its changes name the page.
    expect((await api.spaces.mergeChangeRequest(space.id, b.id)).data).toEqual({ revision: main, result: 'conflicts' });
    expect((await api.spaces.getSpaceById(space.id)).data.revision).toBe(main);
    expect(await markdown()).toBe(live);
    expect((await api.spaces.getChangeRequestById(space.id, b.id)).data).toMatchObject({
      status: 'draft',
      conflicting: true,
    });
    const changed = (await api.spaces.getChangeRequestChanges(space.id, b.id)).data.changes;
    expect(changed).toEqual([
      expect.objectContaining({ page: expect.objectContaining({ id: page.id, conflicted: true }) }),
    ]);

    // Update: the whole table of each side in a conflict block, in markdown and in the JSON document.
    expect((await api.spaces.updateChangeRequest(space.id, b.id)).data.result).toBe('conflicts');
    const text = await markdown(b.id);
    expect(text).toContain('{% conflict %}\n{% conflict-side title="main" %}\n| Service | Port |');
    expect(text).toContain(`{% conflict-side title="change request #${b.number}" %}\n| Service | Port |`);
    expect(text).toContain('| web | 8000 |');
    expect(text).toContain('| web | 443 |');
    expect(text).not.toMatch(/<<<<<<<|>>>>>>>|\\\{%/);
    const json = (await api.spaces.getPageInChangeRequestById(space.id, b.id, page.id, { format: 'document' }))
      .data as unknown as { document: { nodes: { type: string }[] } };
    expect(json.document.nodes.map((n) => n.type)).toEqual(['paragraph', 'conflict', 'paragraph']);

    // Merge refused while the block remains (409 naming the page); main still untouched.
    expect(await apiError(api.spaces.mergeChangeRequest(space.id, b.id))).toMatchObject({
      code: 409,
      message: expect.stringContaining('"Ports"'),
    });
    expect(await markdown()).toBe(live);

    // Resolved by editing the page: no block left, the mark clears, the merge goes through.
    await api.spaces.updateChangeRequestContent(space.id, b.id, {
      changes: [{ operation: 'update_page', page: page.id, document: { markdown: TEXT.replace('| 80 |', '| 443 |') } }],
    } as never);
    // `conflicting` is Quire's own field (GitBook's ChangeRequest has none), so the client's type lacks it.
    expect((await api.spaces.getChangeRequestById(space.id, b.id)).data).toMatchObject({ conflicting: false });
    expect((await api.spaces.mergeChangeRequest(space.id, b.id)).data.result).toBe('merge');
    const merged = await markdown();
    expect(merged).toBe(TEXT.replace('| 80 |', '| 443 |'));
    expect(merged).not.toMatch(/\{% conflict|<<<<<<</);
  });

  it('an edit racing an update: both land, and the merge carries main’s change and the edit', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Race' })).data;
    const write = (crId: string, changes: Record<string, unknown>[]) =>
      api.spaces.updateChangeRequestContent(space.id, crId, { changes } as never);
    await mergeChanges(api, space.id, [
      { operation: 'insert_page', title: 'One', document: { markdown: 'One.\n' } },
      { operation: 'insert_page', title: 'Two', document: { markdown: 'Two.\n' } },
    ]);
    const [one, two] = (await api.spaces.listPages(space.id)).data.pages;
    const mainEdit = (await api.spaces.createChangeRequest(space.id, {})).data;
    const cr = (await api.spaces.createChangeRequest(space.id, {})).data;
    await write(mainEdit.id, [
      { operation: 'update_page', page: one!.id, document: { markdown: 'One, from main.\n' } },
    ]);
    await write(cr.id, [{ operation: 'update_page', page: two!.id, document: { markdown: 'Two, first edit.\n' } }]);
    await api.spaces.mergeChangeRequest(space.id, mainEdit.id);

    await Promise.all([
      api.spaces.updateChangeRequest(space.id, cr.id),
      write(cr.id, [{ operation: 'update_page', page: two!.id, document: { markdown: 'Two, second edit.\n' } }]),
    ]);
    expect((await api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    const live = async (id: string) =>
      ((await api.spaces.getPageById(space.id, id, { format: 'markdown' })).data as { markdown: string }).markdown;
    expect(await live(one!.id)).toBe('One, from main.\n');
    expect(await live(two!.id)).toBe('Two, second edit.\n');
  });
});
