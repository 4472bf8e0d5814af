import { describe, expect, it } from 'vitest';
import { ops, type ContentChange } from '@quire/contracts';
import type { DomainError } from '@quire/kit';
import { buildSpace, failureOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { conflictMarkdown, conflictsIn } from '@quire/document/model';
import { ChangeRequest } from './change-request.entity.ts';
import { editContent } from './content-edit.fixtures.ts';

const ORG = 'org1';
const ADMIN_ID = 'admin-user';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);

const t = useTestService(contentService, loadContentConfig, { label: 'conflicts' });

/**
 * A change request's content edit as the API runs it (the content engine's command, then the conflicts kept up to
 * date); written with the commands, as the operation's answer presents users, which org-admin serves (not running).
 */
const edit = (spaceId: string, crId: string | undefined, changes: ContentChange[]) =>
  editContent(t, spaceId, crId, changes, ADMIN_ID, { refreshConflicts: true });

const ids = (spaceId: string, cr: { id: string }) => ({ spaceId, changeRequestId: cr.id });
const merge = (spaceId: string, cr: { id: string }) => t.call(ops.mergeChangeRequest, ids(spaceId, cr), admin);
const update = (spaceId: string, cr: { id: string }) => t.call(ops.updateChangeRequest, ids(spaceId, cr), admin);
const crRow = (cr: { id: string }) => t.em().findOneOrFail(ChangeRequest, { id: cr.id });
const changes = async (spaceId: string, cr: { id: string }) =>
  (await t.call(ops.getChangeRequestChanges, ids(spaceId, cr), admin)).changes;
const conflicted = async (spaceId: string, cr: { id: string }) =>
  (await changes(spaceId, cr)).flatMap((c) => ('page' in c && c.page.conflicted ? [c.page.id] : []));

async function live(spaceId: string, pageId: string): Promise<string> {
  return (
    ((await t.call(ops.getPageById, { spaceId, pageId, format: 'markdown' }, admin)) as { markdown?: string })
      .markdown ?? ''
  );
}
async function inCr(spaceId: string, cr: { id: string }, pageId: string): Promise<string> {
  return (
    (
      (await t.call(ops.getPageInChangeRequestById, { ...ids(spaceId, cr), pageId, format: 'markdown' }, admin)) as {
        markdown?: string;
      }
    ).markdown ?? ''
  );
}

/** A space with one page holding `markdown`, live; returns the space and the page id. */
async function spaceWithPage(markdown: string, title = 'Guide') {
  const space = await buildSpace(t, { org: ORG, as: admin });
  const cr = await edit(space.id, undefined, [{ operation: 'insert_page', title, document: { markdown } }]);
  expect((await merge(space.id, cr)).result).toBe('merge');
  const pages = await t.call(ops.listPages, { spaceId: space.id }, admin);
  return { spaceId: space.id, pageId: pages.pages[0]!.id };
}

const setText = (page: string, markdown: string): ContentChange => ({
  operation: 'update_page',
  page,
  document: { markdown },
});
const TEXT = 'Install it.\n\nConfigure the token.\n\nRun it.\n';

describe('conflicts never reach main', () => {
  it('a conflicting merge changes nothing in main; update records a conflict block; merge is refused until it is resolved', async () => {
    const { spaceId, pageId } = await spaceWithPage(TEXT);
    const a = await edit(spaceId, undefined, [setText(pageId, TEXT.replace('the token', 'the API token'))]);
    const b = await edit(spaceId, undefined, [setText(pageId, TEXT.replace('the token', 'QUIRE_TOKEN'))]);
    expect((await merge(spaceId, a)).result).toBe('merge');
    const main = (await t.call(ops.getCurrentRevision, { spaceId }, admin)).id;
    const mainText = await live(spaceId, pageId);

    // The merge answers `conflicts` with main's revision; main is untouched; the change request is marked.
    expect(await merge(spaceId, b)).toEqual({ revision: main, result: 'conflicts' });
    expect((await t.call(ops.getCurrentRevision, { spaceId }, admin)).id).toBe(main);
    expect(await live(spaceId, pageId)).toBe(mainText);
    expect(await crRow(b)).toMatchObject({ status: 'draft', conflicts: [pageId], revisionMerged: null });
    // No event says main changed; one says the change request's conflicts did.
    const ofB = async (type: string) =>
      (await t.outboxEvents(type)).filter((e) => (e.data as { changeRequest?: string }).changeRequest === b.id);
    expect(await ofB('change-request.merged')).toEqual([]);
    const latest = (await t.outboxEvents('space.content-updated'))
      .filter((e) => (e.data as { space: string }).space === spaceId)
      .at(-1);
    expect(latest?.data).toMatchObject({ revision: main });
    expect((await ofB('change-request.updated')).map((e) => (e.data as { fields: string[] }).fields)).toContainEqual([
      'conflicts',
    ]);
    expect(await conflicted(spaceId, b)).toEqual([pageId]);

    // Update: both paragraphs kept, whole, in a conflict block of the change request's page.
    expect((await update(spaceId, b)).result).toBe('conflicts');
    const text = await inCr(spaceId, b, pageId);
    const block = conflictMarkdown([
      { title: 'main', markdown: 'Configure the API token.\n' },
      { title: `change request #${b.number}`, markdown: 'Configure QUIRE_TOKEN.\n' },
    ]).trimEnd();
    expect(text).toBe(`Install it.\n\n${block}\n\nRun it.\n`);
    expect(await conflicted(spaceId, b)).toEqual([pageId]);

    // Merge refused (409) naming the page, main untouched.
    const refused = await failureOf<DomainError>(merge(spaceId, b));
    expect(refused.reason).toBe('conflict');
    expect(refused.message).toContain('"Guide"');
    expect(refused.message).toContain(pageId);
    expect(await live(spaceId, pageId)).toBe(mainText);

    // Resolved by editing the page so that no block remains: the mark clears, the merge goes through.
    await edit(spaceId, b.id, [setText(pageId, TEXT.replace('the token', 'QUIRE_TOKEN (the API token)'))]);
    expect(await crRow(b)).toMatchObject({ conflicts: [] });
    expect(await conflicted(spaceId, b)).toEqual([]);
    expect((await merge(spaceId, b)).result).toBe('merge');
    const merged = await live(spaceId, pageId);
    expect(merged).toBe(TEXT.replace('the token', 'QUIRE_TOKEN (the API token)'));
    expect(conflictsIn(merged)).toBe(0);
  });

  it('a conflict inside a table keeps the whole table of each side; inside a code block, the whole code block', async () => {
    const table = (port: string) => `| Service | Port |\n| - | - |\n| web | ${port} |\n| api | 8080 |`;
    const code = (port: string) => `\`\`\`js\nconst port = ${port};\nlisten(port);\n\`\`\``;
    const start = `Ports:\n\n${table('80')}\n\nStart:\n\n${code('80')}\n`;
    const { spaceId, pageId } = await spaceWithPage(start);
    const a = await edit(spaceId, undefined, [
      setText(pageId, start.replaceAll('80;', '8000;').replace('| 80 |', '| 8000 |')),
    ]);
    const b = await edit(spaceId, undefined, [
      setText(pageId, start.replaceAll('80;', '443;').replace('| 80 |', '| 443 |')),
    ]);
    await merge(spaceId, a);
    expect((await merge(spaceId, b)).result).toBe('conflicts');
    expect((await update(spaceId, b)).result).toBe('conflicts');
    const text = await inCr(spaceId, b, pageId);
    const side = (main: string, mine: string) =>
      conflictMarkdown([
        { title: 'main', markdown: `${main}\n` },
        { title: `change request #${b.number}`, markdown: `${mine}\n` },
      ]).trimEnd();
    expect(text).toBe(
      `Ports:\n\n${side(table('8000'), table('443'))}\n\nStart:\n\n${side(code('8000'), code('443'))}\n`,
    );
    expect(conflictsIn(text)).toBe(2);
    expect(text).not.toMatch(/<<<<<<<|>>>>>>>/);
    expect(await live(spaceId, pageId)).toBe(start.replaceAll('80;', '8000;').replace('| 80 |', '| 8000 |'));
  });

  it('deleted in main, edited in the change request: the page kept with a block; resolved by deleting it', async () => {
    const { spaceId, pageId } = await spaceWithPage(TEXT);
    const deleting = await edit(spaceId, undefined, [{ operation: 'delete_page', page: pageId }]);
    const editing = await edit(spaceId, undefined, [setText(pageId, TEXT.replace('Run it.', 'Run it twice.'))]);
    await merge(spaceId, deleting);
    expect((await merge(spaceId, editing)).result).toBe('conflicts');
    expect((await t.call(ops.listPages, { spaceId }, admin)).pages).toEqual([]);
    expect((await update(spaceId, editing)).result).toBe('conflicts');
    const text = await inCr(spaceId, editing, pageId);
    expect(text).toBe(
      conflictMarkdown([
        { title: 'main', markdown: '' },
        { title: `change request #${editing.number}`, markdown: TEXT.replace('Run it.', 'Run it twice.') },
      ]),
    );
    expect(await conflicted(spaceId, editing)).toEqual([pageId]);
    await edit(spaceId, editing.id, [{ operation: 'delete_page', page: pageId }]);
    expect(await crRow(editing)).toMatchObject({ conflicts: [] });
    expect((await merge(spaceId, editing)).result).toBe('merge');
    expect((await t.call(ops.listPages, { spaceId }, admin)).pages).toEqual([]);
  });

  it('deleted in the change request, edited in main: kept with main’s text; keeping it resolves', async () => {
    const { spaceId, pageId } = await spaceWithPage(TEXT);
    const editing = await edit(spaceId, undefined, [setText(pageId, TEXT.replace('Run it.', 'Run it now.'))]);
    const deleting = await edit(spaceId, undefined, [{ operation: 'delete_page', page: pageId }]);
    await merge(spaceId, editing);
    expect((await merge(spaceId, deleting)).result).toBe('conflicts');
    expect(await live(spaceId, pageId)).toBe(TEXT.replace('Run it.', 'Run it now.'));
    expect((await update(spaceId, deleting)).result).toBe('conflicts');
    expect(conflictsIn(await inCr(spaceId, deleting, pageId))).toBe(1);
    await edit(spaceId, deleting.id, [setText(pageId, TEXT.replace('Run it.', 'Run it now.'))]);
    expect((await merge(spaceId, deleting)).result).toBe('merge');
    expect(await live(spaceId, pageId)).toBe(TEXT.replace('Run it.', 'Run it now.'));
  });

  it('a title changed on both sides: update keeps both titles; resolved by removing the block', async () => {
    const { spaceId, pageId } = await spaceWithPage(TEXT);
    const a = await edit(spaceId, undefined, [{ operation: 'update_page', page: pageId, title: 'Installation' }]);
    const b = await edit(spaceId, undefined, [{ operation: 'update_page', page: pageId, title: 'Getting started' }]);
    await merge(spaceId, a);
    expect((await merge(spaceId, b)).result).toBe('conflicts');
    expect((await update(spaceId, b)).result).toBe('conflicts');
    const text = await inCr(spaceId, b, pageId);
    expect(text).toContain('**Title:** Installation');
    expect(text).toContain('**Title:** Getting started');
    expect(text.endsWith(TEXT)).toBe(true);
    await edit(spaceId, b.id, [setText(pageId, TEXT)]);
    expect((await merge(spaceId, b)).result).toBe('merge');
    expect((await t.call(ops.getPageById, { spaceId, pageId }, admin)).title).toBe('Getting started');
  });

  it('a page moved to two parents: update names both parents; the change request’s place wins once resolved', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    const seed = await edit(space.id, undefined, [
      { operation: 'insert_page', ref: 'guides', title: 'Guides', document: { markdown: 'All guides.\n' } },
      { operation: 'insert_page', ref: 'reference', title: 'Reference', document: { markdown: 'All references.\n' } },
      { operation: 'insert_page', into: 'guides', title: 'Setup', document: { markdown: TEXT } },
    ] as ContentChange[]);
    await merge(space.id, seed);
    const pages = (await t.call(ops.listPages, { spaceId: space.id }, admin)).pages;
    const [guides, reference] = pages;
    const setup = (guides as unknown as { pages: { id: string }[] }).pages[0]!.id;
    const a = await edit(space.id, undefined, [{ operation: 'update_page', page: setup, into: reference!.id }]);
    const b = await edit(space.id, undefined, [{ operation: 'update_page', page: setup, into: null }]);
    await merge(space.id, a);
    expect((await merge(space.id, b)).result).toBe('conflicts');
    expect((await update(space.id, b)).result).toBe('conflicts');
    const text = await inCr(space.id, b, setup);
    expect(text).toContain('**Parent:** Reference (/reference)');
    expect(text).toContain('**Parent:** (top level)');
    await edit(space.id, b.id, [setText(setup, TEXT)]);
    expect((await merge(space.id, b)).result).toBe('merge');
    const top = (await t.call(ops.listPages, { spaceId: space.id }, admin)).pages.map((p) => p.id);
    expect(top).toContain(setup);
  });

  it('two concurrent updates: one conflict block, nothing lost, nothing doubled', async () => {
    const { spaceId, pageId } = await spaceWithPage(TEXT);
    const a = await edit(spaceId, undefined, [setText(pageId, TEXT.replace('Install it.', 'Install it with npm.'))]);
    const b = await edit(spaceId, undefined, [setText(pageId, TEXT.replace('Install it.', 'Install it with pnpm.'))]);
    await merge(spaceId, a);
    const [first, second] = await Promise.all([update(spaceId, b), update(spaceId, b)]);
    expect([first.result, second.result]).toEqual(['conflicts', 'conflicts']);
    expect(first.revision).toBe(second.revision);
    const row = await crRow(b);
    expect(row.revisionId).toBe(first.revision);
    const text = await inCr(spaceId, b, pageId);
    expect(conflictsIn(text)).toBe(1);
    expect(text.match(/with npm/g)).toHaveLength(1);
    expect(text.match(/with pnpm/g)).toHaveLength(1);
    // The second update found the change request up to date: one update revision, parents head and main.
    const revision = await t.call(ops.getRevisionOfChangeRequestById, ids(spaceId, b), admin);
    expect(revision.parents).toHaveLength(2);
  });

  it('an update with no conflict answers update and leaves the change request unmarked', async () => {
    const { spaceId, pageId } = await spaceWithPage(TEXT);
    const a = await edit(spaceId, undefined, [setText(pageId, TEXT.replace('Install it.', 'Install it first.'))]);
    const b = await edit(spaceId, undefined, [setText(pageId, TEXT.replace('Run it.', 'Run it last.'))]);
    await merge(spaceId, a);
    expect((await update(spaceId, b)).result).toBe('update');
    expect(await crRow(b)).toMatchObject({ conflicts: [] });
    expect((await merge(spaceId, b)).result).toBe('merge');
    expect(await live(spaceId, pageId)).toBe('Install it first.\n\nConfigure the token.\n\nRun it last.\n');
  });
});
