import type { ContentChange } from '@quire/contracts';
import { invalid, newId } from '@quire/kit';
import { documentHash } from '../modules/revisions/document.repository.ts';
import {
  reusableContentsOf,
  type ReusableContentRecord,
  type RevisionTree,
} from '../modules/revisions/revision-tree.ts';

type Change<K extends ContentChange['operation']> = Extract<ContentChange, { operation: K }>;

/** Where a change fails: `changes.<index>.<field>: <why>` (the batch is refused whole, nothing written). */
const refuse = (index: number, field: string, why: string) =>
  invalid(`Invalid request: changes.${index}.${field}: ${why}`);

/**
 * The reusable contents of a change request as a batch of `updateChangeRequestContent` changes them (Quire's
 * `insert_reusable_content`, `update_reusable_content`, `delete_reusable_content`): the records, and the raw markdown
 * of the documents the batch sets (normalised with the pages' documents, then content-addressed).
 */
export class ReusableContentBatch {
  readonly records: Map<string, ReusableContentRecord>;
  /** Raw markdown of the documents set by this batch, by reusable content id, and the field each came from. */
  readonly bodies = new Map<string, { markdown: string; field: string }>();
  readonly #now: Date;

  constructor(head: RevisionTree, now: Date) {
    this.records = new Map(reusableContentsOf(head));
    this.#now = now;
  }

  /** A new reusable content; `body`: its document's markdown as read from the change. */
  insert(index: number, change: Change<'insert_reusable_content'>, body: string): string {
    const id = newId();
    this.records.set(id, { id, title: change.title, documentHash: null, createdAt: this.#now, updatedAt: this.#now });
    this.bodies.set(id, { markdown: body, field: `changes.${index}.document` });
    return id;
  }

  /** A new title and/or document (`body`: undefined when the change gives none). */
  update(index: number, change: Change<'update_reusable_content'>, body: string | undefined): void {
    const record = this.#existing(index, change.reusableContent);
    this.records.set(record.id, { ...record, title: change.title ?? record.title, updatedAt: this.#now });
    if (body !== undefined) this.bodies.set(record.id, { markdown: body, field: `changes.${index}.document` });
  }

  delete(index: number, change: Change<'delete_reusable_content'>): void {
    this.records.delete(this.#existing(index, change.reusableContent).id);
    this.bodies.delete(change.reusableContent);
  }

  #existing(index: number, id: string): ReusableContentRecord {
    const record = this.records.get(id);
    if (!record)
      throw refuse(index, 'reusableContent', `no reusable content ${JSON.stringify(id)} in the change request`);
    return record;
  }

  /**
   * Sets the documents of the batch from their normalised markdown (`normalize`: the pages' normalisation, on the
   * parsing threads); returns them by hash, to be stored with the revision.
   */
  async documents(normalize: (markdown: string, field: string) => Promise<string>): Promise<Map<string, string>> {
    const documents = new Map<string, string>();
    for (const [id, { markdown: raw, field }] of this.bodies) {
      const markdown = await normalize(raw, field);
      const hash = markdown.trim() ? documentHash(markdown) : null;
      if (hash) documents.set(hash, markdown);
      const record = this.records.get(id)!;
      if (hash !== record.documentHash) this.records.set(id, { ...record, documentHash: hash, updatedAt: this.#now });
    }
    return documents;
  }
}
