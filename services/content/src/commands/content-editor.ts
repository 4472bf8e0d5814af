import { imageSize } from 'image-size';
import type { ContentChange, DocumentInput } from '@quire/contracts';
import { invalid, newId, orderKeyBetween, slugify, uniqueSlug, type BlobStore, type EntityManager } from '@quire/kit';
import type { IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { pageSnapshot } from '../modules/merge/tree.ts';
import { textParser, type ParseSession } from '../modules/parsing/text-parser.ts';
import { documentHash } from '../modules/revisions/document.repository.ts';
import {
  childrenByParent,
  childrenIndex,
  rememberChildren,
  SiblingLists,
  type FileRecord,
  type PageRecord,
  type RevisionTree,
} from '../modules/revisions/revision-tree.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { changeRequestContentWriter } from './change-request-writer.ts';
import { assertEditable } from './edit-state.ts';
import { ReusableContentBatch } from './reusable-content-editor.ts';
import { revisionWriter } from './revision-writer.ts';

/** Largest file `insert_files` takes (decoded bytes); 400 above. */
export const MAX_FILE_BYTES = 1024 * 1024;

export interface ContentEditorProps {
  space: ISpace;
  changeRequest: IChangeRequest;
  /** The change request's current revision. */
  head: RevisionTree;
  /** A revision of the space for `revert_page` (the change request's merge base when no id is given). */
  revertTarget(revisionId: string | undefined): Promise<RevisionTree>;
  /** Bytes of a file given by URL (through the kit's guarded fetch). */
  fetchFile(url: string): Promise<{ bytes: Buffer; contentType: string | undefined }>;
  blobs: BlobStore;
  changes: ContentChange[];
  userId: string;
  /** Where the documents are read (off the event loop, bounded in time and memory); a session of default settings when omitted. */
  parse?: ParseSession;
  now?: Date;
}

/** Where a change fails: `changes.<index>.<field>: <why>` (the batch is refused whole, nothing written). */
const refuse = (index: number, field: string, why: string) =>
  invalid(`Invalid request: changes.${index}.${field}: ${why}`);

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);

type PageMeta = {
  title?: string | undefined;
  emoji?: string | undefined;
  icon?: string | undefined;
  description?: string | undefined;
  hidden?: boolean | undefined;
  noIndex?: boolean | undefined;
  noRobotsIndex?: boolean | undefined;
};
type ReadDocument = { body: string; meta: Record<string, unknown>; heading: string | undefined };
type Change<K extends ContentChange['operation']> = Extract<ContentChange, { operation: K }>;

/** A page's fields from a change, its document's front matter winning over the change's own fields. */
function applyMeta(page: PageRecord, c: PageMeta, meta: Record<string, unknown>): void {
  const title = text(meta.title) ?? c.title;
  if (title !== undefined) page.title = title;
  const emoji = text(meta.emoji) ?? c.emoji;
  if (emoji !== undefined) page.emoji = emoji || null;
  if (c.icon !== undefined) page.icon = c.icon || null;
  const description = text(meta.description) ?? c.description;
  if (description !== undefined) page.description = description || null;
  page.hidden = flag(meta.hidden) ?? c.hidden ?? page.hidden;
  page.noIndex = flag(meta.noIndex) ?? c.noIndex ?? page.noIndex;
  page.noRobotsIndex = flag(meta.noRobotsIndex) ?? c.noRobotsIndex ?? page.noRobotsIndex;
}

/** A new page's record before its change's fields are applied. */
const blankPage = (id: string, parentId: string | null, order: string, now: Date): PageRecord => ({
  ...pageSnapshot(id, order, { parentId, title: 'Untitled' }),
  createdAt: now,
  updatedAt: now,
});

/** An image's size and type when the bytes are an image this platform can measure. */
function imageOf(bytes: Buffer): { width: number; height: number; type: string | undefined } | undefined {
  try {
    const size = imageSize(bytes);
    return size.width && size.height ? { width: size.width, height: size.height, type: size.type } : undefined;
  } catch {
    return undefined;
  }
}

const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', svg: 'image/svg+xml' };

/**
 * The tree of a change request as a batch changes it: its pages and files, the children of each parent kept up to
 * date change by change (a batch costs what it changes, not the tree's size), the slugs under the parents the batch
 * looked at, the documents the batch sets, and the refs it names.
 */
class ContentBatch {
  readonly pages: Map<string, PageRecord>;
  readonly files: Map<string, FileRecord>;
  /** Raw markdown of the documents set by this batch, by page id (refs are resolved once the batch is known). */
  readonly bodies = new Map<string, string>();
  /** The field of each page's document set by this batch (for the errors of its normalisation). */
  readonly bodyField = new Map<string, string>();
  readonly pageRefs = new Map<string, string>();
  readonly fileRefs = new Map<string, string>();
  readonly explicitSlug = new Map<string, number>();
  /** Pages and files this batch writes, deletes or may have changed (the others are the head's own records). */
  readonly touched = new Set<string>();
  readonly touchedFiles = new Set<string>();
  lists: SiblingLists;
  /** The reusable contents as the batch changes them. */
  readonly reusable: ReusableContentBatch;
  /** After changes that may move pages between parents wholesale (a revert): the lists were made again. */
  relisted = false;
  readonly #slugCounts = new Map<string | null, Map<string, number>>();

  readonly props: ContentEditorProps;
  readonly parse: ParseSession;
  readonly now: Date;

  constructor(props: ContentEditorProps, parse: ParseSession, now: Date) {
    this.props = props;
    this.parse = parse;
    this.now = now;
    this.pages = new Map(props.head.pages);
    this.files = new Map(props.head.files);
    this.lists = new SiblingLists(this.pages, childrenIndex(props.head.pages));
    this.reusable = new ReusableContentBatch(props.head, now);
  }

  async apply(index: number, change: ContentChange): Promise<void> {
    switch (change.operation) {
      case 'insert_page':
        return this.insertPage(index, change);
      case 'update_page':
        return this.updatePage(index, change);
      case 'delete_page':
        return this.deletePage(index, change);
      case 'revert_page':
        return this.revertPage(index, change);
      case 'insert_files':
        for (const [j, input] of change.files.entries()) await this.insertFile(index, `files.${j}`, input);
        return;
      case 'insert_reusable_content':
        this.reusable.insert(index, change, await this.reusableBodyOf(index, change.document));
        return;
      case 'update_reusable_content': {
        const body = change.document && (await this.reusableBodyOf(index, change.document));
        return this.reusable.update(index, change, body);
      }
      case 'delete_reusable_content':
        return this.reusable.delete(index, change);
    }
  }

  async insertPage(index: number, change: Change<'insert_page'>): Promise<void> {
    const parentId = change.into === undefined ? null : this.resolvePage(index, 'into', change.into);
    if (change.ref !== undefined && (this.pageRefs.has(change.ref) || this.fileRefs.has(change.ref)))
      throw refuse(index, 'ref', 'used twice in the batch');
    const doc = await this.documentOf(index, change.document);
    const page = blankPage(newId(), parentId, this.orderAt(parentId, change.at), this.now);
    applyMeta(page, change, doc.meta);
    if (!change.title && !text(doc.meta.title) && doc.heading) page.title = doc.heading.trim();
    page.slug = change.slug ?? text(doc.meta.slug) ?? uniqueSlug(slugify(page.title), this.slugsUnder(parentId));
    if (change.slug !== undefined) this.explicitSlug.set(page.id, index);
    this.put(page);
    this.setBody(index, page.id, doc.body);
    if (change.ref !== undefined) this.pageRefs.set(change.ref, page.id);
    this.touched.add(page.id);
  }

  async updatePage(index: number, change: Change<'update_page'>): Promise<void> {
    const id = this.resolvePage(index, 'page', change.page);
    const page = { ...this.pages.get(id)! };
    if (change.document !== undefined) {
      const doc = await this.documentOf(index, change.document);
      applyMeta(page, change, doc.meta);
      if (doc.heading && !change.title && !text(doc.meta.title)) page.title = doc.heading.trim();
      this.setBody(index, id, doc.body);
    } else {
      applyMeta(page, change, {});
    }
    if (change.slug !== undefined) {
      page.slug = change.slug;
      this.explicitSlug.set(id, index);
    }
    if (change.into !== undefined || change.at !== undefined) this.move(index, page, change.into, change.at);
    page.updatedAt = this.now;
    this.put(page);
    this.touched.add(id);
  }

  /** A page to another parent (`into`: null for the top level, undefined to stay) and position. */
  move(index: number, page: PageRecord, into: string | null | undefined, at: number | undefined): void {
    const parentId = into === undefined ? page.parentId : into === null ? null : this.resolvePage(index, 'into', into);
    if (parentId !== null && (parentId === page.id || this.descendants(page.id).has(parentId)))
      throw refuse(index, 'into', 'a page cannot move into itself or one of its sub-pages');
    const moved = parentId !== page.parentId;
    page.parentId = parentId;
    if (moved || at !== undefined) page.order = this.orderAt(parentId, at, page.id);
  }

  deletePage(index: number, change: Change<'delete_page'>): void {
    const id = this.resolvePage(index, 'page', change.page);
    const gone = [id, ...this.descendants(id)];
    this.drop(gone);
    for (const g of gone) this.bodies.delete(g), this.touched.add(g);
  }

  async revertPage(index: number, change: Change<'revert_page'>): Promise<void> {
    const id = this.pageRefs.get(change.page) ?? change.page;
    let target: RevisionTree;
    try {
      target = await this.props.revertTarget(change.revision);
    } catch {
      throw refuse(index, 'revision', `no revision ${JSON.stringify(change.revision)} in the space`);
    }
    const before = target.pages.get(id);
    if (!this.pages.has(id) && !before)
      throw refuse(index, 'page', `no page ${JSON.stringify(change.page)} in the change request or the revision`);
    if (before) {
      // Back as it was; under the top level when its old parent is gone.
      const parentId = before.parentId !== null && this.pages.has(before.parentId) ? before.parentId : null;
      this.pages.set(id, { ...before, parentId });
      this.bodies.delete(id);
      this.touched.add(id);
    } else {
      for (const gone of [id, ...this.descendants(id)])
        this.pages.delete(gone), this.bodies.delete(gone), this.touched.add(gone);
    }
    this.relist();
  }

  async insertFile(index: number, field: string, input: Change<'insert_files'>['files'][number]): Promise<void> {
    if (input.ref !== undefined && (this.fileRefs.has(input.ref) || this.pageRefs.has(input.ref)))
      throw refuse(index, `${field}.ref`, 'used twice in the batch');
    const { bytes, contentType: fetchedType } = await this.bytesOf(index, field, input);
    if (bytes.length > MAX_FILE_BYTES) throw refuse(index, field, `larger than ${MAX_FILE_BYTES} bytes`);
    const image = imageOf(bytes);
    const contentType =
      input.contentType ??
      fetchedType ??
      (image?.type ? (IMAGE_TYPES[image.type] ?? `image/${image.type}`) : 'application/octet-stream');
    const { key, size } = await this.props.blobs.put(bytes, contentType);
    const id = newId();
    this.touchedFiles.add(id);
    this.files.set(id, {
      id,
      name: input.name,
      contentType,
      size,
      blobKey: key,
      width: image?.width ?? null,
      height: image?.height ?? null,
      createdAt: this.now,
    });
    if (input.ref !== undefined) this.fileRefs.set(input.ref, id);
  }

  /** A file's bytes: decoded from base64, or fetched from its URL (400 naming the field when neither works). */
  async bytesOf(
    index: number,
    field: string,
    input: { base64?: string | undefined; url?: string | undefined },
  ): Promise<{ bytes: Buffer; contentType: string | undefined }> {
    if (input.base64 !== undefined) {
      if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(input.base64)) throw refuse(index, `${field}.base64`, 'not base64');
      return { bytes: Buffer.from(input.base64, 'base64'), contentType: undefined };
    }
    try {
      return await this.props.fetchFile(input.url!);
    } catch (err) {
      throw refuse(index, `${field}.url`, `could not be fetched (${(err as Error).message})`);
    }
  }

  /** A change's document read on the parsing threads: its body, front matter and first heading. */
  async documentOf(index: number, doc: DocumentInput | undefined): Promise<ReadDocument> {
    if (!doc || !('markdown' in doc || 'document' in doc)) return { body: '', meta: {}, heading: undefined };
    if ('markdown' in doc) {
      const field = `changes.${index}.document.markdown`;
      const read = await this.parse.run({ kind: 'markdownPage', markdown: doc.markdown }, field);
      if ('error' in read) throw refuse(index, 'document.markdown', read.error);
      return read;
    }
    const field = `changes.${index}.document.document`;
    const converted = await this.parse.run({ kind: 'jsonDocument', document: doc.document }, field);
    if ('error' in converted)
      throw refuse(index, 'document.document', `not a JSON document this platform reads (${converted.error})`);
    return { body: converted.markdown, meta: {}, heading: undefined };
  }

  /** A reusable content's markdown as given (no front matter nor title heading of a page), or its JSON document's. */
  async reusableBodyOf(index: number, doc: DocumentInput): Promise<string> {
    return 'markdown' in doc ? doc.markdown : (await this.documentOf(index, doc)).body;
  }

  setBody(index: number, id: string, body: string): void {
    this.bodies.set(id, body);
    this.bodyField.set(id, `changes.${index}.document`);
  }

  resolvePage(index: number, field: string, ref: string): string {
    const id = this.pageRefs.get(ref) ?? ref;
    if (!this.pages.has(id)) throw refuse(index, field, `no page ${JSON.stringify(ref)} in the change request`);
    return id;
  }

  /** The order key of position `at` (the end when undefined) among a parent's children, `except` one of them. */
  orderAt(parentId: string | null, at: number | undefined, except?: string): string {
    const all = this.lists.of(parentId);
    const list = except === undefined ? all : all.filter((p) => p.id !== except);
    const i = at === undefined ? list.length : Math.min(at, list.length);
    return orderKeyBetween(list[i - 1]?.order, list[i]?.order);
  }

  /** The sub-pages of a page, each after its parent. */
  descendants(id: string): Set<string> {
    const out = new Set<string>();
    const stack = [id];
    while (stack.length)
      for (const c of this.lists.of(stack.pop()!)) if (!out.has(c.id)) out.add(c.id), stack.push(c.id);
    return out;
  }

  slugsUnder(parentId: string | null): ReadonlySet<string> {
    let counts = this.#slugCounts.get(parentId);
    if (!counts) {
      this.#slugCounts.set(parentId, (counts = new Map()));
      for (const p of this.lists.of(parentId)) counts.set(p.slug, (counts.get(p.slug) ?? 0) + 1);
    }
    const seen = counts;
    return { has: (slug: string) => seen.has(slug) } as ReadonlySet<string>;
  }

  #countSlug(parentId: string | null, slug: string, by: number): void {
    const counts = this.#slugCounts.get(parentId);
    if (!counts) return;
    const n = (counts.get(slug) ?? 0) + by;
    if (n > 0) counts.set(slug, n);
    else counts.delete(slug);
  }

  #unlist(page: PageRecord): void {
    this.#countSlug(this.lists.parentOf(page), page.slug, -1);
    this.lists.remove(page);
  }

  /** Sets a page (new or changed) in the tree and in its parent's children. */
  put(page: PageRecord): void {
    const old = this.pages.get(page.id);
    if (old) this.#unlist(old);
    this.pages.set(page.id, page);
    this.lists.add(page);
    this.#countSlug(this.lists.parentOf(page), page.slug, 1);
  }

  /** Removes pages, each after its descendants (a page is unlisted while its parent is still in the tree). */
  drop(ids: readonly string[]): void {
    for (let i = ids.length - 1; i >= 0; i--) {
      const old = this.pages.get(ids[i]!);
      if (!old) continue;
      this.#unlist(old);
      this.pages.delete(old.id);
    }
  }

  relist(): void {
    this.lists = new SiblingLists(this.pages, childrenByParent(this.pages));
    this.#slugCounts.clear();
    this.relisted = true;
  }

  /**
   * Slugs stay unique among siblings: an explicit slug that collides refuses the batch (only the parents whose
   * children changed are looked at; all of them after a revert).
   */
  checkSlugs(): void {
    const children = this.lists.result();
    for (const parentId of this.relisted ? children.keys() : this.lists.changedParents()) {
      const seen = new Map<string, string>();
      for (const p of children.get(parentId) ?? []) {
        if (p.kind === 'link') continue;
        const other = seen.get(p.slug);
        if (other !== undefined) {
          const culprit = this.explicitSlug.has(p.id) ? p.id : other;
          const index = this.explicitSlug.get(culprit) ?? this.explicitSlug.get(p.id) ?? 0;
          const where = parentId ? '' : ' at the top level';
          throw refuse(index, 'slug', `${JSON.stringify(p.slug)} is already the slug of a sibling page${where}`);
        }
        seen.set(p.slug, p.id);
      }
    }
  }

  /**
   * The documents: refs of the batch become page links (`./<ref>.md#anchor` → `/pages/<id>#anchor`) and file
   * references (`./<ref>` → GitBook's file ref in the JSON document), a link title kept, in links, images,
   * content-refs, cards and buttons, never in code; normalised on the parsing threads all at once (the first
   * failure refuses the batch, naming its document), then keyed by their content hash.
   */
  async documents(): Promise<Map<string, string>> {
    const documents = new Map<string, string>();
    const refs = { pages: Object.fromEntries(this.pageRefs), files: Object.fromEntries(this.fileRefs) };
    const normalized = await Promise.all(
      [...this.bodies].map(async ([id, markdown]) => {
        const field = this.bodyField.get(id) ?? 'document';
        return [id, await this.parse.run({ kind: 'normalize', markdown, refs }, field)] as const;
      }),
    );
    for (const [id, markdown] of normalized) {
      const page = this.pages.get(id)!;
      const hash = markdown.trim() ? documentHash(markdown) : null;
      if (hash) documents.set(hash, markdown);
      if (hash !== page.documentHash) this.put({ ...page, documentHash: hash, updatedAt: this.now });
    }
    rememberChildren(this.pages, this.lists.result());
    const reusable = await this.reusable.documents((markdown, field) =>
      this.parse.run({ kind: 'normalize', markdown, refs }, field),
    );
    for (const [hash, markdown] of reusable) documents.set(hash, markdown);
    return documents;
  }
}

/**
 * Applies a batch of changes to a change request's content, atomically, into one new revision (rows written
 * for the pages and files that changed only). Any invalid change refuses the whole batch with a 400 naming the
 * change and the field. A locked space, or a merged change request, refuses edits (409).
 */
export async function contentEditor(em: EntityManager, props: ContentEditorProps): Promise<IChangeRequest> {
  const { space, changeRequest: cr } = props;
  assertEditable(space, cr);
  const now = props.now ?? new Date();
  const batch = new ContentBatch(props, props.parse ?? textParser().session(), now);
  for (const [index, change] of props.changes.entries()) await batch.apply(index, change);
  batch.checkSlugs();
  const documents = await batch.documents();
  const tree = await revisionWriter(em, {
    spaceId: space.id,
    base: props.head,
    parents: [props.head.revision.id],
    type: 'edits',
    createdBy: props.userId,
    changeRequestId: cr.id,
    pages: batch.pages,
    files: batch.files,
    reusableContents: batch.reusable.records,
    changed: { pages: batch.touched, files: batch.touchedFiles },
    documents,
    now,
  });
  await changeRequestContentWriter(em, { space, cr, revisionId: tree.revision.id, userId: props.userId, now });
  return cr;
}
