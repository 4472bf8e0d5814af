import { newId, type EntityManager } from '@quire/kit';
import { documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import {
  reusableContentsOf,
  samePage,
  sameReusableContent,
  type FileRecord,
  type ReusableContentRecord,
  type PageRecord,
  type RevisionTree,
  type StoredRows,
} from '../modules/revisions/revision-tree.ts';
import { Revision, type RevisionType } from '../modules/spaces/space.entity.ts';

/**
 * A revision is written whole (a snapshot) rather than as a delta when the deltas along its lineage would hold more
 * rows than the snapshot they build on (so snapshots grow geometrically while a space is written: each costs no more
 * rows than the deltas written since the previous one, and a write costs what it changes, amortized), or when its
 * lineage would be longer than this (a tree is read from a bounded number of revisions, however small the deltas).
 */
export const MAX_LINEAGE = 128;

const sameFile = (a: FileRecord | undefined, b: FileRecord) =>
  !!a &&
  a.name === b.name &&
  a.blobKey === b.blobKey &&
  a.contentType === b.contentType &&
  a.width === b.width &&
  a.height === b.height;

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
  /**
   * The whole new set of reusable contents; the base's when omitted (a write about pages and files only). Few per
   * space: always compared whole with the base's.
   */
  reusableContents?: ReadonlyMap<string, ReusableContentRecord>;
  /**
   * The ids of the pages and files that may differ from the base (written, changed or deleted); every other one is
   * the base's own record. Given by a caller that knows (an edit), so that only these are compared; otherwise the
   * whole trees are.
   */
  changed?: { pages: ReadonlySet<string>; files: ReadonlySet<string> };
  /** Documents the new tree references that may not be stored yet (hash → markdown). */
  documents?: ReadonlyMap<string, string>;
  conflicts?: { pageId: string; fields: string[] }[];
  now?: Date;
}

type PageRow = { id: string; page: PageRecord | null };
type FileRow = { id: string; file: FileRecord | null };

/** The rows of `after` against `base` (`null`: deleted), looking only at `ids` when given. */
function deltaRows<T extends { id: string }>(
  base: ReadonlyMap<string, T>,
  after: ReadonlyMap<string, T>,
  same: (a: T | undefined, b: T) => boolean,
  ids?: ReadonlySet<string>,
): { id: string; record: T | null }[] {
  const rows: { id: string; record: T | null }[] = [];
  if (ids) {
    for (const id of ids) {
      const record = after.get(id);
      if (record) {
        if (!same(base.get(id), record)) rows.push({ id, record });
      } else if (base.has(id)) rows.push({ id, record: null });
    }
    return rows;
  }
  for (const record of after.values()) if (!same(base.get(record.id), record)) rows.push({ id: record.id, record });
  for (const id of base.keys()) if (!after.has(id)) rows.push({ id, record: null });
  return rows;
}

const snapshotRows = <T extends { id: string }>(after: ReadonlyMap<string, T>) =>
  [...after.values()].map((record) => ({ id: record.id, record }));

/** Whether a revision on `base` with `delta` rows is written whole. */
export function writesSnapshot(base: RevisionTree | null, delta: number): boolean {
  if (!base) return true;
  if (base.revision.lineage.length + 1 > MAX_LINEAGE) return true;
  // How the base is stored is unknown (a tree built elsewhere): the lineage's length alone decides.
  if (!base.stored) return false;
  return base.stored.deltas + delta > base.stored.snapshot;
}

/**
 * Writes a new immutable revision: only the pages and files that differ from the base are written (rows grow
 * with what changed, not with the size of the space), now and then a full snapshot (see `MAX_LINEAGE`) so a
 * tree is read from a bounded number of rows and revisions. Returns the new tree (also cached).
 */
export async function revisionWriter(em: EntityManager, props: RevisionWriterProps): Promise<RevisionTree> {
  const now = props.now ?? new Date();
  const id = newId();
  const base = props.base;
  const baseLineage = base?.revision.lineage ?? [];
  const noPages = new Map<string, PageRecord>();
  const noFiles = new Map<string, FileRecord>();
  const pageDelta = deltaRows(base?.pages ?? noPages, props.pages, samePage, base ? props.changed?.pages : undefined);
  const fileDelta = deltaRows(base?.files ?? noFiles, props.files, sameFile, base ? props.changed?.files : undefined);
  const baseReusable = base ? reusableContentsOf(base) : new Map<string, ReusableContentRecord>();
  const reusableContents = props.reusableContents ?? baseReusable;
  const reusableDelta = deltaRows(baseReusable, reusableContents, sameReusableContent);
  const snapshot = writesSnapshot(base, pageDelta.length + fileDelta.length + reusableDelta.length);
  const pageRows: PageRow[] = (snapshot ? snapshotRows(props.pages) : pageDelta).map((r) => ({
    id: r.id,
    page: r.record,
  }));
  const fileRows: FileRow[] = (snapshot ? snapshotRows(props.files) : fileDelta).map((r) => ({
    id: r.id,
    file: r.record,
  }));
  const reusableRows = snapshot ? snapshotRows(reusableContents) : reusableDelta;
  const rows = pageRows.length + fileRows.length + reusableRows.length;
  const stored: StoredRows = snapshot
    ? { snapshot: rows, deltas: 0 }
    : { snapshot: base!.stored?.snapshot ?? Number.POSITIVE_INFINITY, deltas: (base!.stored?.deltas ?? 0) + rows };

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
  await revisionRepository.insertReusableContents(em, id, reusableRows, now);
  const tree: RevisionTree = {
    revision,
    pages: props.pages,
    files: props.files,
    reusableContents,
    ...(Number.isFinite(stored.snapshot) ? { stored } : {}),
  };
  revisionRepository.prime(tree);
  return tree;
}
