import { newId, type EntityManager } from '@quire/kit';
import type { PageSnapshot } from '../modules/merge/tree.ts';
import { documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import type { FileRecord, PageRecord, RevisionTree } from '../modules/revisions/revision-tree.ts';
import { Revision, type RevisionType } from '../modules/spaces/space.entity.ts';

/** Every this many revisions along a lineage, a revision is written whole (a snapshot) rather than as a delta. */
export const SNAPSHOT_EVERY = 32;

const PAGE_FIELDS = ['parentId', 'order', 'kind', 'title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'href', 'documentHash'] as const satisfies readonly (keyof PageSnapshot)[];

function samePage(a: PageRecord | undefined, b: PageRecord): boolean {
  if (!a) return false;
  for (const f of PAGE_FIELDS) if (a[f] !== b[f]) return false;
  return JSON.stringify(a.layout) === JSON.stringify(b.layout) && JSON.stringify(a.cover) === JSON.stringify(b.cover);
}

const sameFile = (a: FileRecord | undefined, b: FileRecord) => !!a && a.name === b.name && a.blobKey === b.blobKey && a.contentType === b.contentType && a.width === b.width && a.height === b.height;

export interface RevisionWriterProps {
  spaceId: string;
  /** The first parent's tree (null for a space's very first revision): the new revision is stored as the difference from it. */
  base: RevisionTree | null;
  /** The parents (the base's revision first; a merge or update has two). */
  parents: string[];
  type: RevisionType;
  createdBy: string | null;
  changeRequestId?: string | null;
  /** The whole new tree. */
  pages: ReadonlyMap<string, PageRecord>;
  files: ReadonlyMap<string, FileRecord>;
  /** Documents the new tree references that may not be stored yet (hash → markdown). */
  documents?: ReadonlyMap<string, string>;
  conflicts?: { pageId: string; fields: string[] }[];
  now?: Date;
}

/**
 * Writes a new immutable revision: only the pages and files that differ from the base are written (rows grow
 * with what changed, not with the size of the space), every `SNAPSHOT_EVERY` revisions a full snapshot so a
 * tree is read from a bounded number of revisions. Returns the new tree (also cached).
 */
export async function revisionWriter(em: EntityManager, props: RevisionWriterProps): Promise<RevisionTree> {
  const now = props.now ?? new Date();
  const id = newId();
  const baseLineage = props.base?.revision.lineage ?? [];
  const snapshot = !props.base || baseLineage.length >= SNAPSHOT_EVERY;
  const basePages: ReadonlyMap<string, PageRecord> = snapshot ? new Map() : props.base!.pages;
  const baseFiles: ReadonlyMap<string, FileRecord> = snapshot ? new Map() : props.base!.files;

  const pageRows: { id: string; page: PageRecord | null }[] = [];
  for (const page of props.pages.values()) if (!samePage(basePages.get(page.id), page)) pageRows.push({ id: page.id, page });
  for (const pageId of basePages.keys()) if (!props.pages.has(pageId)) pageRows.push({ id: pageId, page: null });
  const fileRows: { id: string; file: FileRecord | null }[] = [];
  for (const file of props.files.values()) if (!sameFile(baseFiles.get(file.id), file)) fileRows.push({ id: file.id, file });
  for (const fileId of baseFiles.keys()) if (!props.files.has(fileId)) fileRows.push({ id: fileId, file: null });

  if (props.documents?.size) await documentRepository.putMany(em, props.documents, now);
  const revision = em.create(Revision, {
    id,
    spaceId: props.spaceId,
    parents: props.parents,
    type: props.type,
    createdAt: now,
    createdBy: props.createdBy,
    changeRequestId: props.changeRequestId ?? null,
    lineage: snapshot ? [id] : [...baseLineage, id],
    conflicts: props.conflicts ?? [],
  });
  await revisionRepository.insertPages(em, id, pageRows, now);
  await revisionRepository.insertFiles(em, id, fileRows, now);
  const tree: RevisionTree = { revision, pages: props.pages, files: props.files };
  revisionRepository.prime(tree);
  return tree;
}
