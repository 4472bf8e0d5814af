import { generateKeyBetween } from 'fractional-indexing';
import { imageSize } from 'image-size';
import { Events, type ContentChange, type DocumentInput } from '@quire/contracts';
import { invalid, newId, recordEvent, slugify, uniqueSlug, type BlobStore, type EntityManager } from '@quire/kit';
import type { IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { changeRequestRepository } from '../modules/change-requests/change-request.repository.ts';
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
import { assertEditable } from './edit-state.ts';
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

/**
 * Applies a batch of changes to a change request's content, atomically, into one new revision (rows written
 * for the pages and files that changed only). Any invalid change refuses the whole batch with a 400 naming the
 * change and the field. A locked space, or a merged change request, refuses edits (409).
 */
export async function contentEditor(em: EntityManager, props: ContentEditorProps): Promise<IChangeRequest> {
  const { space, changeRequest: cr } = props;
  assertEditable(space, cr);
  const now = props.now ?? new Date();
  const pages = new Map<string, PageRecord>(props.head.pages);
  const files = new Map<string, FileRecord>(props.head.files);
  /** Raw markdown of the documents set by this batch, by page id (refs are resolved once the batch is known). */
  const bodies = new Map<string, string>();
  const pageRefs = new Map<string, string>();
  const fileRefs = new Map<string, string>();
  const explicitSlug = new Map<string, number>();
  /** Pages and files this batch writes, deletes or may have changed (the others are the head's own records). */
  const touched = new Set<string>();
  const touchedFiles = new Set<string>();

  // The children of each parent, kept up to date change by change (a batch costs what it changes, not the tree's
  // size), with the slugs under the parents the batch looked at.
  let lists = new SiblingLists(pages, childrenIndex(props.head.pages));
  const slugCounts = new Map<string | null, Map<string, number>>();
  const countSlug = (parentId: string | null, slug: string, by: number) => {
    const counts = slugCounts.get(parentId);
    if (!counts) return;
    const n = (counts.get(slug) ?? 0) + by;
    if (n > 0) counts.set(slug, n);
    else counts.delete(slug);
  };
  const slugsUnder = (parentId: string | null): ReadonlySet<string> => {
    let counts = slugCounts.get(parentId);
    if (!counts) {
      slugCounts.set(parentId, (counts = new Map()));
      for (const p of lists.of(parentId)) counts.set(p.slug, (counts.get(p.slug) ?? 0) + 1);
    }
    return { has: (slug: string) => counts.has(slug) } as ReadonlySet<string>;
  };
  const unlist = (page: PageRecord) => {
    countSlug(lists.parentOf(page), page.slug, -1);
    lists.remove(page);
  };
  /** Sets a page (new or changed) in the tree and in its parent's children. */
  const put = (page: PageRecord) => {
    const old = pages.get(page.id);
    if (old) unlist(old);
    pages.set(page.id, page);
    lists.add(page);
    countSlug(lists.parentOf(page), page.slug, 1);
  };
  /** Removes pages, each after its descendants (a page is unlisted while its parent is still in the tree). */
  const drop = (ids: readonly string[]) => {
    for (let i = ids.length - 1; i >= 0; i--) {
      const old = pages.get(ids[i]!);
      if (!old) continue;
      unlist(old);
      pages.delete(old.id);
    }
  };
  /** After changes that may move pages between parents wholesale (a revert): the lists are made again. */
  let relisted = false;
  const relist = () => {
    lists = new SiblingLists(pages, childrenByParent(pages));
    slugCounts.clear();
    relisted = true;
  };
  const orderAt = (parentId: string | null, at: number | undefined, except?: string) => {
    const all = lists.of(parentId);
    const list = except === undefined ? all : all.filter((p) => p.id !== except);
    const i = at === undefined ? list.length : Math.min(at, list.length);
    return generateKeyBetween(list[i - 1]?.order || null, list[i]?.order || null);
  };
  const resolvePage = (index: number, field: string, ref: string) => {
    const id = pageRefs.get(ref) ?? ref;
    if (!pages.has(id)) throw refuse(index, field, `no page ${JSON.stringify(ref)} in the change request`);
    return id;
  };
  /** The sub-pages of a page, each after its parent. */
  const descendants = (id: string) => {
    const out = new Set<string>();
    const stack = [id];
    while (stack.length) for (const c of lists.of(stack.pop()!)) if (!out.has(c.id)) out.add(c.id), stack.push(c.id);
    return out;
  };
  const parse = props.parse ?? textParser().session();
  /** The field of each page's document set by this batch (for the errors of its normalisation). */
  const bodyField = new Map<string, string>();
  const documentOf = async (
    index: number,
    doc: DocumentInput | undefined,
  ): Promise<{ body: string; meta: Record<string, unknown>; heading: string | undefined }> => {
    if (!doc || !('markdown' in doc || 'document' in doc)) return { body: '', meta: {}, heading: undefined };
    if ('markdown' in doc) {
      const read = await parse.run(
        { kind: 'markdownPage', markdown: doc.markdown },
        `changes.${index}.document.markdown`,
      );
      if ('error' in read) throw refuse(index, 'document.markdown', read.error);
      return read;
    }
    const converted = await parse.run(
      { kind: 'jsonDocument', document: doc.document },
      `changes.${index}.document.document`,
    );
    if ('error' in converted)
      throw refuse(index, 'document.document', `not a JSON document this platform reads (${converted.error})`);
    return { body: converted.markdown, meta: {}, heading: undefined };
  };
  const applyMeta = (
    page: PageRecord,
    c: {
      title?: string | undefined;
      emoji?: string | undefined;
      icon?: string | undefined;
      description?: string | undefined;
      hidden?: boolean | undefined;
      noIndex?: boolean | undefined;
      noRobotsIndex?: boolean | undefined;
    },
    meta: Record<string, unknown>,
  ) => {
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
  };

  for (const [index, change] of props.changes.entries()) {
    switch (change.operation) {
      case 'insert_page': {
        const parentId = change.into === undefined ? null : resolvePage(index, 'into', change.into);
        if (change.ref !== undefined) {
          if (pageRefs.has(change.ref) || fileRefs.has(change.ref))
            throw refuse(index, 'ref', 'used twice in the batch');
        }
        const doc = await documentOf(index, change.document);
        const id = newId();
        const page: PageRecord = {
          id,
          parentId,
          order: orderAt(parentId, change.at),
          kind: 'document',
          title: 'Untitled',
          slug: '',
          emoji: null,
          icon: null,
          description: null,
          hidden: false,
          noIndex: false,
          noRobotsIndex: false,
          layout: null,
          cover: null,
          href: null,
          documentHash: null,
          createdAt: now,
          updatedAt: now,
        };
        applyMeta(page, change, doc.meta);
        if (!change.title && !text(doc.meta.title) && doc.heading) page.title = doc.heading.trim();
        page.slug = change.slug ?? text(doc.meta.slug) ?? uniqueSlug(slugify(page.title), slugsUnder(parentId));
        if (change.slug !== undefined) explicitSlug.set(id, index);
        put(page);
        bodies.set(id, doc.body);
        bodyField.set(id, `changes.${index}.document`);
        if (change.ref !== undefined) pageRefs.set(change.ref, id);
        touched.add(id);
        break;
      }
      case 'update_page': {
        const id = resolvePage(index, 'page', change.page);
        const page = { ...pages.get(id)! };
        if (change.document !== undefined) {
          const doc = await documentOf(index, change.document);
          applyMeta(page, change, doc.meta);
          if (doc.heading && !change.title && !text(doc.meta.title)) page.title = doc.heading.trim();
          bodies.set(id, doc.body);
          bodyField.set(id, `changes.${index}.document`);
        } else {
          applyMeta(page, change, {});
        }
        if (change.slug !== undefined) {
          page.slug = change.slug;
          explicitSlug.set(id, index);
        }
        if (change.into !== undefined || change.at !== undefined) {
          const parentId =
            change.into === undefined
              ? page.parentId
              : change.into === null
                ? null
                : resolvePage(index, 'into', change.into);
          if (parentId !== null && (parentId === id || descendants(id).has(parentId)))
            throw refuse(index, 'into', 'a page cannot move into itself or one of its sub-pages');
          const moved = parentId !== page.parentId;
          page.parentId = parentId;
          if (moved || change.at !== undefined) page.order = orderAt(parentId, change.at, id);
        }
        page.updatedAt = now;
        put(page);
        touched.add(id);
        break;
      }
      case 'delete_page': {
        const id = resolvePage(index, 'page', change.page);
        const gone = [id, ...descendants(id)];
        drop(gone);
        for (const g of gone) bodies.delete(g), touched.add(g);
        break;
      }
      case 'revert_page': {
        const id = pageRefs.get(change.page) ?? change.page;
        let target: RevisionTree;
        try {
          target = await props.revertTarget(change.revision);
        } catch {
          throw refuse(index, 'revision', `no revision ${JSON.stringify(change.revision)} in the space`);
        }
        const before = target.pages.get(id);
        if (!pages.has(id) && !before)
          throw refuse(index, 'page', `no page ${JSON.stringify(change.page)} in the change request or the revision`);
        if (before) {
          // Back as it was; under the top level when its old parent is gone.
          pages.set(id, {
            ...before,
            parentId: before.parentId !== null && pages.has(before.parentId) ? before.parentId : null,
          });
          bodies.delete(id);
          touched.add(id);
        } else {
          for (const gone of [id, ...descendants(id)]) pages.delete(gone), bodies.delete(gone), touched.add(gone);
        }
        relist();
        break;
      }
      case 'insert_files': {
        for (const [j, input] of change.files.entries()) {
          const field = `files.${j}`;
          if (input.ref !== undefined && (fileRefs.has(input.ref) || pageRefs.has(input.ref)))
            throw refuse(index, `${field}.ref`, 'used twice in the batch');
          let bytes: Buffer;
          let fetchedType: string | undefined;
          if (input.base64 !== undefined) {
            if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(input.base64)) throw refuse(index, `${field}.base64`, 'not base64');
            bytes = Buffer.from(input.base64, 'base64');
          } else {
            try {
              ({ bytes, contentType: fetchedType } = await props.fetchFile(input.url!));
            } catch (err) {
              throw refuse(index, `${field}.url`, `could not be fetched (${(err as Error).message})`);
            }
          }
          if (bytes.length > MAX_FILE_BYTES) throw refuse(index, field, `larger than ${MAX_FILE_BYTES} bytes`);
          let dimensions: { width: number; height: number; type: string | undefined } | undefined;
          try {
            const size = imageSize(bytes);
            if (size.width && size.height) dimensions = { width: size.width, height: size.height, type: size.type };
          } catch {
            dimensions = undefined;
          }
          const contentType =
            input.contentType ??
            fetchedType ??
            (dimensions?.type
              ? `image/${dimensions.type === 'jpg' ? 'jpeg' : dimensions.type === 'svg' ? 'svg+xml' : dimensions.type}`
              : 'application/octet-stream');
          const { key, size } = await props.blobs.put(bytes, contentType);
          const id = newId();
          touchedFiles.add(id);
          files.set(id, {
            id,
            name: input.name,
            contentType,
            size,
            blobKey: key,
            width: dimensions?.width ?? null,
            height: dimensions?.height ?? null,
            createdAt: now,
          });
          if (input.ref !== undefined) fileRefs.set(input.ref, id);
        }
        break;
      }
    }
  }

  // Slugs stay unique among siblings: an explicit slug that collides refuses the batch (only the parents whose
  // children changed are looked at; all of them after a revert).
  const children = lists.result();
  for (const parentId of relisted ? children.keys() : lists.changedParents()) {
    const list = children.get(parentId) ?? [];
    const seen = new Map<string, string>();
    for (const p of list) {
      if (p.kind === 'link') continue;
      const other = seen.get(p.slug);
      if (other !== undefined) {
        const culprit = explicitSlug.has(p.id) ? p.id : other;
        const index = explicitSlug.get(culprit) ?? explicitSlug.get(p.id) ?? 0;
        throw refuse(
          index,
          'slug',
          `${JSON.stringify(p.slug)} is already the slug of a sibling page${parentId ? '' : ' at the top level'}`,
        );
      }
      seen.set(p.slug, p.id);
    }
  }

  // Documents: refs of the batch become page links (`./<ref>.md#anchor` → `/pages/<id>#anchor`) and file
  // references (`./<ref>` → GitBook's file ref in the JSON document), a link title kept, in links, images,
  // content-refs, cards and buttons, never in code; then each is stored content-addressed.
  const documents = new Map<string, string>();
  const refs = { pages: Object.fromEntries(pageRefs), files: Object.fromEntries(fileRefs) };
  // Normalised on the parsing threads, all at once (the first failure refuses the batch, naming its document).
  const normalized = await Promise.all(
    [...bodies].map(
      async ([id, markdown]) =>
        [id, await parse.run({ kind: 'normalize', markdown, refs }, bodyField.get(id) ?? 'document')] as const,
    ),
  );
  for (const [id, markdown] of normalized) {
    const page = pages.get(id)!;
    const hash = markdown.trim() ? documentHash(markdown) : null;
    if (hash) documents.set(hash, markdown);
    if (hash !== page.documentHash) put({ ...page, documentHash: hash, updatedAt: now });
  }
  rememberChildren(pages, lists.result());

  const tree = await revisionWriter(em, {
    spaceId: space.id,
    base: props.head,
    parents: [props.head.revision.id],
    type: 'edits',
    createdBy: props.userId,
    changeRequestId: cr.id,
    pages,
    files,
    changed: { pages: touched, files: touchedFiles },
    documents,
    now,
  });
  cr.revisionId = tree.revision.id;
  cr.updatedAt = now;
  em.persist(cr);
  await changeRequestRepository.addContributor(em, cr.id, props.userId, now);
  recordEvent(em, Events.changeRequestUpdated, {
    space: space.id,
    organization: space.organizationId,
    changeRequest: cr.id,
    fields: ['content'],
  });
  return cr;
}
