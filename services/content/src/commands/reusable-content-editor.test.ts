import { describe, expect, it } from 'vitest';
import { failureOf } from '@quire/kit/testing';
import { documentHash } from '../modules/revisions/document.repository.ts';
import type { ReusableContentRecord, RevisionTree } from '../modules/revisions/revision-tree.ts';
import { ReusableContentBatch } from './reusable-content-editor.ts';

const then = new Date('2031-01-01T00:00:00Z');
const now = new Date('2031-02-01T00:00:00Z');
const note: ReusableContentRecord = {
  id: 'rc-note',
  title: 'Note',
  documentHash: documentHash('Old text\n'),
  createdAt: then,
  updatedAt: then,
};
/** A change request's head holding the reusable content `note`. */
const head = { revision: {}, pages: new Map(), files: new Map(), reusableContents: new Map([[note.id, note]]) };
const batch = () => new ReusableContentBatch(head as unknown as RevisionTree, now);
/** The normalisation the pages get, here: trimmed, one final newline; it records the fields it was asked for. */
const normalizer = () => {
  const fields: string[] = [];
  const normalize = async (markdown: string, field: string) => {
    fields.push(field);
    return markdown.trim() ? `${markdown.trim()}\n` : '';
  };
  return { fields, normalize };
};
const refusal = async (work: () => unknown) => {
  const err = await failureOf(Promise.resolve().then(work));
  return { reason: err.reason, message: err.message };
};

describe('ReusableContentBatch', () => {
  it('inserts a reusable content with its normalised document, content-addressed', async () => {
    const b = batch();
    const id = b.insert(
      2,
      { operation: 'insert_reusable_content', title: 'Warning', document: { markdown: '' } },
      ' Careful ',
    );
    const { fields, normalize } = normalizer();
    const documents = await b.documents(normalize);
    expect(fields).toEqual(['changes.2.document']);
    expect([...documents]).toEqual([[documentHash('Careful\n'), 'Careful\n']]);
    expect(b.records.get(id)).toEqual({
      id,
      title: 'Warning',
      documentHash: documentHash('Careful\n'),
      createdAt: now,
      updatedAt: now,
    });
    // The head's reusable content is kept as it was.
    expect(b.records.get(note.id)).toEqual(note);
  });

  it('renames without touching the document; a new document changes the hash, an empty one clears it', async () => {
    const renamed = batch();
    renamed.update(0, { operation: 'update_reusable_content', reusableContent: note.id, title: 'Notice' }, undefined);
    expect(await renamed.documents(normalizer().normalize)).toEqual(new Map());
    expect(renamed.records.get(note.id)).toEqual({ ...note, title: 'Notice', updatedAt: now });

    const rewritten = batch();
    rewritten.update(1, { operation: 'update_reusable_content', reusableContent: note.id }, 'New text');
    await rewritten.documents(normalizer().normalize);
    expect(rewritten.records.get(note.id)).toMatchObject({ title: 'Note', documentHash: documentHash('New text\n') });

    const emptied = batch();
    emptied.update(1, { operation: 'update_reusable_content', reusableContent: note.id }, '   ');
    expect(await emptied.documents(normalizer().normalize)).toEqual(new Map());
    expect(emptied.records.get(note.id)).toMatchObject({ documentHash: null, updatedAt: now });
  });

  it('keeps the hash of a document that normalises to the same text, storing nothing new', async () => {
    const same = batch();
    same.update(0, { operation: 'update_reusable_content', reusableContent: note.id }, '  Old text  ');
    // The document is handed on to be stored (content-addressed: the same row), the record's hash is unchanged.
    expect([...(await same.documents(normalizer().normalize)).keys()]).toEqual([note.documentHash]);
    expect(same.records.get(note.id)).toMatchObject({ documentHash: note.documentHash });
  });

  it('deletes one, dropping a document the batch had set for it', async () => {
    const b = batch();
    b.update(0, { operation: 'update_reusable_content', reusableContent: note.id }, 'Soon gone');
    b.delete(1, { operation: 'delete_reusable_content', reusableContent: note.id });
    const { fields, normalize } = normalizer();
    expect(await b.documents(normalize)).toEqual(new Map());
    expect(fields).toEqual([]);
    expect(b.records.has(note.id)).toBe(false);
  });

  it('refuses to update or delete a reusable content the change request does not have, naming the change', async () => {
    const b = batch();
    expect(
      await refusal(() =>
        b.update(3, { operation: 'update_reusable_content', reusableContent: 'nope', title: 'X' }, undefined),
      ),
    ).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: changes.3.reusableContent: no reusable content "nope" in the change request',
    });
    b.delete(0, { operation: 'delete_reusable_content', reusableContent: note.id });
    expect(
      await refusal(() => b.delete(1, { operation: 'delete_reusable_content', reusableContent: note.id })),
    ).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: changes.1.reusableContent: no reusable content "rc-note" in the change request',
    });
  });
});
