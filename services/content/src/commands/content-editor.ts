import { generateKeyBetween } from 'fractional-indexing';
import { imageSize } from 'image-size';
import { parse as parseYaml } from 'yaml';
import { Events, type ContentChange, type DocumentInput } from '@quire/contracts';
import { conflict, invalid, newId, recordEvent, type BlobStore, type EntityManager } from '@quire/kit';
import type { IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { changeRequestRepository } from '../modules/change-requests/change-request.repository.ts';
import { documentToMarkdown, normalizeMarkdown, slugify, uniqueSlug, urlFromRef } from '../modules/documents/index.ts';
import { documentHash } from '../modules/revisions/document.repository.ts';
import { childrenByParent, type FileRecord, type PageRecord, type RevisionTree } from '../modules/revisions/revision-tree.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
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
  now?: Date;
}

/** A locked space, or a merged change request, refuses content changes (409). */
export function assertEditable(space: ISpace, cr?: IChangeRequest): void {
  if (space.editMode === 'locked') throw conflict('The space is locked (editMode `locked`): its content cannot change');
  if (cr?.status === 'merged') throw conflict('The change request is merged: it can no longer change');
}

/** Where a change fails: `changes.<index>.<field>: <why>` (the batch is refused whole, nothing written). */
const refuse = (index: number, field: string, why: string) => invalid(`Invalid request: changes.${index}.${field}: ${why}`);

/** Title, description… read from a markdown document's frontmatter, and its leading `# heading` (taken as the title). */
function readMarkdown(markdown: string, index: number): { body: string; meta: Record<string, unknown>; heading: string | undefined } {
  let body = markdown;
  let meta: Record<string, unknown> = {};
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (front) {
    try {
      const parsed: unknown = parseYaml(front[1]!);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
    } catch {
      throw refuse(index, 'document.markdown', 'the frontmatter is not valid YAML');
    }
    body = body.slice(front[0].length);
  }
  const heading = /^\s*#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/.exec(body);
  if (heading) body = body.slice(heading[0].length);
  return { body, meta, heading: heading?.[1] };
}

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
  const touched = new Set<string>();

  const siblings = (parentId: string | null, except?: string) =>
    (childrenByParent(pages).get(parentId) ?? []).filter((p) => p.id !== except);
  const orderAt = (parentId: string | null, at: number | undefined, except?: string) => {
    const list = siblings(parentId, except);
    const i = at === undefined ? list.length : Math.min(at, list.length);
    return generateKeyBetween(list[i - 1]?.order || null, list[i]?.order || null);
  };
  const resolvePage = (index: number, field: string, ref: string) => {
    const id = pageRefs.get(ref) ?? ref;
    if (!pages.has(id)) throw refuse(index, field, `no page ${JSON.stringify(ref)} in the change request`);
    return id;
  };
  const descendants = (id: string) => {
    const out = new Set<string>();
    const children = childrenByParent(pages);
    const stack = [id];
    while (stack.length) for (const c of children.get(stack.pop()!) ?? []) if (!out.has(c.id)) (out.add(c.id), stack.push(c.id));
    return out;
  };
  const documentOf = (index: number, doc: DocumentInput | undefined): { body: string; meta: Record<string, unknown>; heading: string | undefined } => {
    if (!doc || !('markdown' in doc || 'document' in doc)) return { body: '', meta: {}, heading: undefined };
    if ('markdown' in doc) return readMarkdown(doc.markdown, index);
    try {
      return { body: documentToMarkdown(doc.document as never), meta: {}, heading: undefined };
    } catch (err) {
      throw refuse(index, 'document.document', `not a JSON document this platform reads (${(err as Error).message})`);
    }
  };
  const applyMeta = (page: PageRecord, c: { title?: string | undefined; emoji?: string | undefined; icon?: string | undefined; description?: string | undefined; hidden?: boolean | undefined; noIndex?: boolean | undefined; noRobotsIndex?: boolean | undefined }, meta: Record<string, unknown>) => {
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
          if (pageRefs.has(change.ref) || fileRefs.has(change.ref)) throw refuse(index, 'ref', 'used twice in the batch');
        }
        const doc = documentOf(index, change.document);
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
        page.slug = change.slug ?? text(doc.meta.slug) ?? uniqueSlug(slugify(page.title), new Set(siblings(parentId).map((s) => s.slug)));
        if (change.slug !== undefined) explicitSlug.set(id, index);
        pages.set(id, page);
        bodies.set(id, doc.body);
        if (change.ref !== undefined) pageRefs.set(change.ref, id);
        touched.add(id);
        break;
      }
      case 'update_page': {
        const id = resolvePage(index, 'page', change.page);
        const page = { ...pages.get(id)! };
        if (change.document !== undefined) {
          const doc = documentOf(index, change.document);
          applyMeta(page, change, doc.meta);
          if (doc.heading && !change.title && !text(doc.meta.title)) page.title = doc.heading.trim();
          bodies.set(id, doc.body);
        } else {
          applyMeta(page, change, {});
        }
        if (change.slug !== undefined) {
          page.slug = change.slug;
          explicitSlug.set(id, index);
        }
        if (change.into !== undefined || change.at !== undefined) {
          const parentId = change.into === undefined ? page.parentId : change.into === null ? null : resolvePage(index, 'into', change.into);
          if (parentId !== null && (parentId === id || descendants(id).has(parentId))) throw refuse(index, 'into', 'a page cannot move into itself or one of its sub-pages');
          const moved = parentId !== page.parentId;
          page.parentId = parentId;
          if (moved || change.at !== undefined) page.order = orderAt(parentId, change.at, id);
        }
        page.updatedAt = now;
        pages.set(id, page);
        touched.add(id);
        break;
      }
      case 'delete_page': {
        const id = resolvePage(index, 'page', change.page);
        for (const gone of [id, ...descendants(id)]) {
          pages.delete(gone);
          bodies.delete(gone);
          touched.add(gone);
        }
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
        if (!pages.has(id) && !before) throw refuse(index, 'page', `no page ${JSON.stringify(change.page)} in the change request or the revision`);
        if (before) {
          // Back as it was; under the top level when its old parent is gone.
          pages.set(id, { ...before, parentId: before.parentId !== null && pages.has(before.parentId) ? before.parentId : null });
          bodies.delete(id);
        } else {
          for (const gone of [id, ...descendants(id)]) (pages.delete(gone), bodies.delete(gone));
        }
        touched.add(id);
        break;
      }
      case 'insert_files': {
        for (const [j, input] of change.files.entries()) {
          const field = `files.${j}`;
          if (input.ref !== undefined && (fileRefs.has(input.ref) || pageRefs.has(input.ref))) throw refuse(index, `${field}.ref`, 'used twice in the batch');
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
          const contentType = input.contentType ?? fetchedType ?? (dimensions?.type ? `image/${dimensions.type === 'jpg' ? 'jpeg' : dimensions.type === 'svg' ? 'svg+xml' : dimensions.type}` : 'application/octet-stream');
          const { key, size } = await props.blobs.put(bytes, contentType);
          const id = newId();
          files.set(id, { id, name: input.name, contentType, size, blobKey: key, width: dimensions?.width ?? null, height: dimensions?.height ?? null, createdAt: now });
          if (input.ref !== undefined) fileRefs.set(input.ref, id);
        }
        break;
      }
    }
  }

  // Slugs stay unique among siblings: an explicit slug that collides refuses the batch.
  for (const [parentId, list] of childrenByParent(pages)) {
    const seen = new Map<string, string>();
    for (const p of list) {
      if (p.kind === 'link') continue;
      const other = seen.get(p.slug);
      if (other !== undefined) {
        const culprit = explicitSlug.has(p.id) ? p.id : other;
        const index = explicitSlug.get(culprit) ?? explicitSlug.get(p.id) ?? 0;
        throw refuse(index, 'slug', `${JSON.stringify(p.slug)} is already the slug of a sibling page${parentId ? '' : ' at the top level'}`);
      }
      seen.set(p.slug, p.id);
    }
  }

  // Documents: refs of the batch become page links (`./<ref>.md#anchor` → `/pages/<id>#anchor`) and file
  // references (`./<ref>` → `gitbook-file:<id>`, GitBook's file ref in the JSON document), a link title kept;
  // then each is stored content-addressed.
  const documents = new Map<string, string>();
  const refLink = /\]\(\s*(?:\.\/)?([^)\s#"]+?)(\.md)?(#[^)\s"]*)?(\s+"(?:[^"\\]|\\.)*")?\s*\)/g;
  for (const [id, body] of bodies) {
    const resolved = body.replace(refLink, (all, ref: string, md: string | undefined, anchor: string | undefined, title: string | undefined) => {
      const page = pageRefs.get(ref);
      if (page) return `](/pages/${page}${anchor ?? ''}${title ?? ''})`;
      const file = md || anchor ? undefined : fileRefs.get(ref);
      return file ? `](${urlFromRef({ kind: 'file', file })}${title ?? ''})` : all;
    });
    const markdown = normalizeMarkdown(resolved);
    const page = pages.get(id)!;
    const hash = markdown.trim() ? documentHash(markdown) : null;
    if (hash) documents.set(hash, markdown);
    if (hash !== page.documentHash) pages.set(id, { ...page, documentHash: hash, updatedAt: now });
  }

  const tree = await revisionWriter(em, {
    spaceId: space.id,
    base: props.head,
    parents: [props.head.revision.id],
    type: 'edits',
    createdBy: props.userId,
    changeRequestId: cr.id,
    pages,
    files,
    documents,
    now,
  });
  cr.revisionId = tree.revision.id;
  cr.updatedAt = now;
  em.persist(cr);
  await changeRequestRepository.addContributor(em, cr.id, props.userId, now);
  recordEvent(em, Events.changeRequestUpdated, { space: space.id, organization: space.organizationId, changeRequest: cr.id, fields: ['content'] });
  return cr;
}

