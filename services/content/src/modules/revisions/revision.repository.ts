import { LRUCache } from 'lru-cache';
import { notFound, sql, sqlRun, type EntityManager } from '@quire/kit';
import { Revision, type IRevision } from '../spaces/space.entity.ts';
import type { ChangedIds, FileRecord, PageRecord, ReusableContentRecord, RevisionTree } from './revision-tree.ts';

/** A page row: the snapshot's same-named fields, plus the snake_case columns. */
interface PageRow
  extends Pick<
    PageRecord,
    'kind' | 'title' | 'slug' | 'emoji' | 'icon' | 'description' | 'hidden' | 'layout' | 'cover' | 'href'
  > {
  page_id: string;
  deleted: boolean;
  parent_id: string | null;
  ord: string;
  no_index: boolean;
  no_robots_index: boolean;
  document_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

interface FileRow {
  file_id: string;
  deleted: boolean;
  name: string;
  content_type: string;
  size: string;
  blob_key: string;
  width: number | null;
  height: number | null;
  created_at: Date;
}

interface ReusableContentRow {
  reusable_content_id: string;
  deleted: boolean;
  title: string;
  document_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

const toReusableContent = (r: ReusableContentRow): ReusableContentRecord => ({
  id: r.reusable_content_id,
  title: r.title,
  documentHash: r.document_hash,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const toPage = (r: PageRow): PageRecord => ({
  id: r.page_id,
  parentId: r.parent_id,
  order: r.ord,
  kind: r.kind,
  title: r.title,
  slug: r.slug,
  emoji: r.emoji,
  icon: r.icon,
  description: r.description,
  hidden: r.hidden,
  noIndex: r.no_index,
  noRobotsIndex: r.no_robots_index,
  layout: r.layout,
  cover: r.cover,
  href: r.href,
  documentHash: r.document_hash,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const toFile = (r: FileRow): FileRecord => ({
  id: r.file_id,
  name: r.name,
  contentType: r.content_type,
  size: Number(r.size),
  blobKey: r.blob_key,
  width: r.width,
  height: r.height,
  createdAt: new Date(r.created_at),
});

/** A `text[]` literal (`{"a","b"}`), bound as one parameter. */
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

/** The revisions whose rows make a revision's tree, its snapshot first (a revision from before lineages: itself). */
const lineageOf = (revision: IRevision): readonly string[] =>
  revision.lineage.length ? revision.lineage : [revision.id];

/**
 * Trees are immutable, so cached by id in an LRU bounded by their pages and files (together, 200,000): each tree holds
 * a map of its own (about 50 bytes a page) and the indexes derived from it (children, paths, the search projection),
 * so a count of trees would let a few large spaces hold hundreds of megabytes. A tree weighs 1 while it is read.
 */
export const TREE_CACHE_ENTRIES = 200_000;
const trees = new LRUCache<string, Promise<RevisionTree>>({ maxSize: TREE_CACHE_ENTRIES });

/** What a tree weighs in the cache: a tree over the whole budget is still kept (alone), not read at every use. */
export const treeWeight = (tree: RevisionTree) =>
  Math.min(TREE_CACHE_ENTRIES, 1 + tree.pages.size + tree.files.size + (tree.reusableContents?.size ?? 0));

/** The cache's weight now and the trees it holds (for tests and metrics). */
export const treeCacheUsage = () => ({ weight: trees.calculatedSize, trees: trees.size });

function remember(id: string, tree: Promise<RevisionTree>): Promise<RevisionTree> {
  trees.set(id, tree, { size: 1 });
  tree.then(
    // lru-cache weighs an entry again only when its value changes: the settled tree goes in as a new promise.
    (read) => trees.peek(id) === tree && trees.set(id, Promise.resolve(read), { size: treeWeight(read) }),
    () => trees.peek(id) === tree && trees.delete(id),
  );
  return tree;
}

/** The values of a `revision_page` row (the columns `insertPages` lists): the page, or a deletion marker (null). */
function pageRowValues(revisionId: string, id: string, p: PageRecord | null, now: Date): unknown[] {
  // A deletion marker: the page is gone from this revision on.
  const gone: unknown[] = [revisionId, id, true, null, '', 'document', '', '', null, null, null, false, false, false];
  if (!p) return [...gone, null, null, null, null, now, now];
  return [
    revisionId,
    id,
    false,
    p.parentId,
    p.order,
    p.kind,
    p.title,
    p.slug,
    p.emoji,
    p.icon,
    p.description,
    p.hidden,
    p.noIndex,
    p.noRobotsIndex,
    p.layout && JSON.stringify(p.layout),
    p.cover && JSON.stringify(p.cover),
    p.href,
    p.documentHash,
    p.createdAt,
    p.updatedAt,
  ];
}

/**
 * Inserts rows into a table of the schema (`into`: the table and its columns), `size` rows a statement: `tuple` is
 * the placeholders of one row, `values` its values.
 */
async function insertInChunks<R>(
  em: EntityManager,
  rows: readonly R[],
  opts: { size: number; into: string; tuple: string; values: (row: R) => unknown[] },
): Promise<void> {
  for (let i = 0; i < rows.length; i += opts.size) {
    const chunk = rows.slice(i, i + opts.size);
    await sqlRun(
      em,
      `insert into :schema.${opts.into}
         values ${chunk.map(() => opts.tuple).join(', ')}`,
      chunk.flatMap(opts.values),
    );
  }
}

/** Revisions and their page and file rows (a revision's rows are those of its lineage: latest row per id wins). */
export const revisionRepository = {
  async findInSpace(em: EntityManager, spaceId: string, id: string): Promise<IRevision> {
    const revision = await em.findOne(Revision, { id, spaceId });
    if (!revision) throw notFound('Revision');
    return revision;
  },

  /** A revision of the space with its tree; a cached tree answers without a query (revisions never change). */
  async treeInSpace(em: EntityManager, spaceId: string, id: string): Promise<RevisionTree> {
    const cached = trees.get(id);
    if (cached) {
      const tree = await cached;
      if (tree.revision.spaceId !== spaceId) throw notFound('Revision');
      return tree;
    }
    return revisionRepository.loadTree(em, await revisionRepository.findInSpace(em, spaceId, id));
  },

  /** The revision's whole tree (cached: a revision never changes). */
  loadTree(em: EntityManager, revision: IRevision): Promise<RevisionTree> {
    return trees.get(revision.id) ?? remember(revision.id, revisionRepository.readTree(em, revision));
  },

  /** Adds a tree this process just wrote to the cache. */
  prime(tree: RevisionTree): void {
    void remember(tree.revision.id, Promise.resolve(tree));
  },

  /**
   * The pages and files that may differ between two revisions of a space (a superset: a row written and written back
   * counts), read from their lineages instead of comparing their trees: past the entries their lineages share (the
   * same snapshot, then the same deltas), a tree is what those entries make of it plus the rows of its own deltas, so
   * an id no such row names is the same in both. One statement reading the rows of the deltas written since their
   * lineages parted (what changed, not the size of the space). Null when they build on different snapshots: then only
   * comparing the trees tells.
   */
  async changedBetween(em: EntityManager, a: IRevision, b: IRevision): Promise<ChangedIds | null> {
    const [la, lb] = [lineageOf(a), lineageOf(b)];
    if (la[0] !== lb[0]) return null;
    let shared = 1;
    while (shared < la.length && shared < lb.length && la[shared] === lb[shared]) shared++;
    const own = [...new Set([...la.slice(shared), ...lb.slice(shared)])];
    const changed = { pages: new Set<string>(), files: new Set<string>() };
    if (!own.length) return changed;
    const ids = textArray(own);
    const rows = await sql<{ file: boolean; id: string }>(
      em,
      `select false as file, page_id as id from :schema.revision_page where revision_id = any(?::text[])
       union all select true, file_id from :schema.revision_file where revision_id = any(?::text[])`,
      [ids, ids],
    );
    for (const r of rows) (r.file ? changed.files : changed.pages).add(r.id);
    return changed;
  },

  async readTree(em: EntityManager, revision: IRevision): Promise<RevisionTree> {
    const lineage = lineageOf(revision);
    // Every row of the lineage (a snapshot, then deltas: bounded, see revision-writer), the latest of each id
    // winning; the rows of the snapshot and of the deltas are counted for the next write's snapshot cadence.
    const rowsOf = (table: string) =>
      `select l.pos, r.* from unnest(?::text[]) with ordinality as l(id, pos) join :schema.${table} r on r.revision_id = l.id`;
    const ids = textArray(lineage);
    const [pageRows, fileRows, reusableRows] = await Promise.all([
      sql<PageRow & { pos: string }>(em, rowsOf('revision_page'), [ids]),
      sql<FileRow & { pos: string }>(em, rowsOf('revision_file'), [ids]),
      sql<ReusableContentRow & { pos: string }>(em, rowsOf('revision_reusable_content'), [ids]),
    ]);
    const stored = { snapshot: 0, deltas: 0 };
    const latest = <R extends { pos: string }>(rows: R[], key: (r: R) => string) => {
      const out = new Map<string, R>();
      for (const r of rows) {
        const pos = Number(r.pos);
        if (pos === 1) stored.snapshot++;
        else stored.deltas++;
        const known = out.get(key(r));
        if (!known || Number(known.pos) < pos) out.set(key(r), r);
      }
      return out.values();
    };
    const pages = new Map<string, PageRecord>();
    for (const r of latest(pageRows, (r) => r.page_id)) if (!r.deleted) pages.set(r.page_id, toPage(r));
    const files = new Map<string, FileRecord>();
    for (const r of latest(fileRows, (r) => r.file_id)) if (!r.deleted) files.set(r.file_id, toFile(r));
    const reusableContents = new Map<string, ReusableContentRecord>();
    for (const r of latest(reusableRows, (r) => r.reusable_content_id))
      if (!r.deleted) reusableContents.set(r.reusable_content_id, toReusableContent(r));
    return { revision, pages, files, reusableContents, stored };
  },

  /** Writes page rows of a revision (`null`: a deletion tombstone). */
  async insertPages(
    em: EntityManager,
    revisionId: string,
    rows: { id: string; page: PageRecord | null }[],
    now: Date,
  ): Promise<void> {
    await insertInChunks(em, rows, {
      size: 300,
      into: 'revision_page (revision_id, page_id, deleted, parent_id, ord, kind, title, slug, emoji, icon, description, hidden, no_index, no_robots_index, layout, cover, href, document_hash, created_at, updated_at)',
      tuple: '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?)',
      values: ({ id, page }) => pageRowValues(revisionId, id, page, now),
    });
  },

  /** Writes reusable content rows of a revision (`null`: a deletion tombstone). */
  async insertReusableContents(
    em: EntityManager,
    revisionId: string,
    rows: { id: string; record: ReusableContentRecord | null }[],
    now: Date,
  ): Promise<void> {
    await insertInChunks(em, rows, {
      size: 500,
      into: 'revision_reusable_content (revision_id, reusable_content_id, deleted, title, document_hash, created_at, updated_at)',
      tuple: '(?, ?, ?, ?, ?, ?, ?)',
      values: ({ id, record: r }) =>
        r
          ? [revisionId, id, false, r.title, r.documentHash, r.createdAt, r.updatedAt]
          : [revisionId, id, true, '', null, now, now],
    });
  },

  async insertFiles(
    em: EntityManager,
    revisionId: string,
    rows: { id: string; file: FileRecord | null }[],
    now: Date,
  ): Promise<void> {
    await insertInChunks(em, rows, {
      size: 500,
      into: 'revision_file (revision_id, file_id, deleted, name, content_type, size, blob_key, width, height, created_at)',
      tuple: '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      values: ({ id, file: f }) =>
        f
          ? [revisionId, id, false, f.name, f.contentType, f.size, f.blobKey, f.width, f.height, f.createdAt]
          : [revisionId, id, true, '', 'application/octet-stream', 0, '', null, null, now],
    });
  },
};
