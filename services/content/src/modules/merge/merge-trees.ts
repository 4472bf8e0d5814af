import { mergeBlocks } from '@quire/document/model';
import {
  attributeConflictMarkdown,
  attributeConflicts,
  deletionConflictMarkdown,
  prependBlock,
} from './page-conflicts.ts';
import { mergePage, survivesDeletion, type DocumentPlan } from './page-merge.ts';
import { repairChanged, repairStructure } from './structure.ts';
import {
  compareStrings,
  MERGE_FIELDS,
  pageChanged,
  readingOrder,
  type MergeConflict,
  type MergeField,
  type MergeInput,
  type MergeLabels,
  type MergeResult,
  type PageSnapshot,
} from './tree.ts';

const DEFAULT_LABELS = { ours: 'ours', theirs: 'theirs' };

/**
 * Three-way merge of two revisions' page trees against their merge base (GitBook semantics: nothing is lost).
 *
 * Structure first, by page id: a page created on one side is kept; deleted on one side and untouched on the
 * other, deleted; deleted on one side and edited on the other, kept as edited (reported as a `deleted`
 * conflict); deleted on both, deleted. Pages on both sides merge field by field (`mergePage`); documents changed
 * on both sides merge block by block (`mergeBlocks`: a conflict keeps both sides' whole blocks in a conflict
 * block), and only those documents are loaded. The result is then made a tree again (`repairStructure`: orphans
 * re-attached, cycles broken, orders and slugs made distinct). With `input.conflictBlocks`, page-level conflicts
 * are written into the pages' documents too (see `page-conflicts.ts`).
 *
 * `hash` names new documents (merged text, text with conflict blocks); they are returned in `documents`.
 * Deterministic: every tie is broken by id, new documents are listed by page id, and the tree comes back in
 * reading order, whatever the insertion order of the input maps.
 */
export async function mergeTrees(input: MergeInput, hash: (markdown: string) => string): Promise<MergeResult> {
  const { ours, theirs } = input;
  const run = await mergePages(input, hash, (visit) => {
    // Visit order does not matter: every later step sorts (by order, slug or id), so the result does not depend on
    // the maps' insertion order.
    for (const id of ours.keys()) visit(id);
    for (const id of theirs.keys()) if (!ours.has(id)) visit(id);
    // (A page only in the base was deleted on both sides.)
  });
  const children = repairStructure(run.pages, input, run.report);
  const tree = new Map<string, PageSnapshot>();
  for (const page of readingOrder(children, run.pages)) tree.set(page.id, page);
  return { tree, documents: run.documents, conflicts: run.conflicts() };
}

/** What a merge that looked only at some pages knows (`mergeChangedPages`). */
export interface ChangedScope {
  /** The pages that may differ between the base and either side (a superset); every other page is the same in the three. */
  pages: ReadonlySet<string>;
  /** Ours' children lists, each in sibling order; ours must be well formed (`isWellFormed`). */
  oursChildren: ReadonlyMap<string | null, readonly PageSnapshot[]>;
}

export interface ChangedMergeResult extends Omit<MergeResult, 'tree'> {
  /**
   * The pages of the merged tree that are not ours' page as it is, by id (null: not in the merged tree): the scope's
   * pages and the pages of ours the repair changed. Ours with these changes is the tree `mergeTrees` gives.
   */
  changed: Map<string, PageSnapshot | null>;
}

/**
 * `mergeTrees` looking only at the pages that may have changed since the base (`scope.pages`, from the revisions'
 * own rows) and their siblings, when ours is well formed (`isWellFormed`): the same merge (the same pages, documents
 * and conflicts), at the cost of what changed rather than of the size of the trees. The result is given as changes
 * to ours.
 */
export async function mergeChangedPages(
  input: MergeInput,
  scope: ChangedScope,
  hash: (markdown: string) => string,
): Promise<ChangedMergeResult> {
  const run = await mergePages(input, hash, (visit) => {
    for (const id of scope.pages) visit(id);
  });
  const removed = new Set<string>();
  for (const id of scope.pages) if (!run.pages.has(id)) removed.add(id);
  repairChanged(run.pages, removed, input, scope.oursChildren, run.report);
  const changed = new Map<string, PageSnapshot | null>(run.pages);
  for (const id of removed) changed.set(id, null);
  return { changed, documents: run.documents, conflicts: run.conflicts() };
}

/**
 * The merge page by page, for the pages `each` visits: structure by id, attributes, documents (and, with
 * `conflictBlocks`, page-level conflicts written into documents); the tree is repaired by the caller.
 */
async function mergePages(
  input: MergeInput,
  hash: (markdown: string) => string,
  each: (visit: (id: string) => void) => void,
) {
  const labels = input.labels ?? DEFAULT_LABELS;
  const { report, conflicted, conflicts } = conflictReport();
  const { pages, deletedOn, textMerges } = mergeByPage(input, each, report);

  const markdown = markdownCache(input.loadMarkdown);
  const documents = await mergeDocuments(textMerges, { markdown, labels, hash, report });

  if (input.conflictBlocks)
    await writePageConflicts({ pages, conflicted: conflicted(), deletedOn, input, labels, markdown, hash, documents });
  return { pages, documents, report, conflicts };
}

/** The conflicts of a merge, by page id: `report` adds one field of a page, `conflicted` lists the pages. */
function conflictReport() {
  const byPage = new Map<string, Set<MergeField>>();
  return {
    report: (pageId: string, field: MergeField) => {
      const fields = byPage.get(pageId);
      if (fields) fields.add(field);
      else byPage.set(pageId, new Set([field]));
    },
    conflicted: () => [...byPage.keys()].sort(compareStrings),
    /** The conflicts reported (the repair of the tree reports too), by page id. */
    conflicts: (): MergeConflict[] =>
      [...byPage]
        .sort(([a], [b]) => compareStrings(a, b))
        .map(([pageId, fields]) => ({ pageId, fields: MERGE_FIELDS.filter((f) => fields.has(f)) })),
  };
}

/**
 * The structure by id and the attributes of the pages `each` visits: the merged pages, the pages kept though
 * deleted on one side, and the documents changed on both sides (merged later, `mergeDocuments`).
 */
function mergeByPage(
  { base, ours, theirs }: MergeInput,
  each: (visit: (id: string) => void) => void,
  report: (pageId: string, field: MergeField) => void,
) {
  const pages = new Map<string, PageSnapshot>();
  const deletedOn = new Map<string, 'ours' | 'theirs'>();
  const textMerges: TextMerge[] = [];
  each((id) => {
    const o = ours.get(id);
    const t = theirs.get(id);
    const b = base.get(id);
    if (!o) {
      if (t) keepOneSide(id, b, t, 'ours');
      return;
    }
    if (!t) {
      keepOneSide(id, b, o, 'theirs');
      return;
    }
    // Unchanged on one side (most pages): the other side's page, as is.
    if (b && !pageChanged(b, o)) {
      pages.set(id, { ...t });
      return;
    }
    if (b && !pageChanged(b, t)) {
      pages.set(id, { ...o });
      return;
    }
    const merged = mergePage(b, o, t);
    for (const field of merged.conflicts) report(id, field);
    pages.set(id, merged.page);
    if (merged.document.kind === 'resolved') merged.page.documentHash = merged.document.hash;
    else textMerges.push({ page: merged.page, plan: merged.document });
  });

  /** A page on one side only: created there (kept), or deleted on the other side (kept only when edited). */
  function keepOneSide(id: string, b: PageSnapshot | undefined, kept: PageSnapshot, deleting: 'ours' | 'theirs'): void {
    if (!b) pages.set(id, { ...kept });
    else if (survivesDeletion(b, kept)) {
      pages.set(id, { ...kept });
      deletedOn.set(id, deleting);
      report(id, 'deleted');
    }
  }

  return { pages, deletedOn, textMerges };
}

type TextMerge = { page: PageSnapshot; plan: Extract<DocumentPlan, { kind: 'text' }> };

interface DocumentsContext {
  markdown: (hash: string | null) => Promise<string>;
  labels: MergeLabels;
  hash: (markdown: string) => string;
  report: (pageId: string, field: MergeField) => void;
}

/**
 * Merges the documents changed on both sides (`mergeBlocks`), setting each page's `documentHash`; returns the new
 * documents, listed by page id. A text equal to one side's keeps that side's hash.
 */
async function mergeDocuments(textMerges: TextMerge[], { markdown, labels, hash, report }: DocumentsContext) {
  const texts = await Promise.all(
    textMerges.map(async ({ plan }) => {
      const [b, o, t] = await Promise.all([markdown(plan.base), markdown(plan.ours), markdown(plan.theirs)]);
      return { o, t, merged: mergeBlocks(b, o, t, labels) };
    }),
  );
  const documents = new Map<string, string>();
  const order = textMerges
    .map((_, i) => i)
    .sort((i, j) => compareStrings(textMerges[i]!.page.id, textMerges[j]!.page.id));
  for (const i of order) {
    const { page, plan } = textMerges[i]!;
    const { o, t, merged } = texts[i]!;
    if (merged.conflicts) report(page.id, 'document');
    if (merged.text === o) page.documentHash = plan.ours;
    else if (merged.text === t) page.documentHash = plan.theirs;
    else if (merged.text === '') page.documentHash = null;
    else {
      page.documentHash = hash(merged.text);
      documents.set(page.documentHash, merged.text);
    }
    // One side made the page a group or a link while the other edited its text: the page stays a document, so
    // the text is not dropped.
    if (page.documentHash !== null && page.kind !== 'document') {
      page.kind = 'document';
      report(page.id, 'kind');
    }
  }
  return documents;
}

/** Loads each hash once (`null`: no document, the empty text). */
function markdownCache(load: (hash: string) => Promise<string>): (hash: string | null) => Promise<string> {
  const cache = new Map<string, Promise<string>>();
  return (hash) => {
    if (hash === null) return Promise.resolve('');
    let text = cache.get(hash);
    if (!text) cache.set(hash, (text = load(hash)));
    return text;
  };
}

interface PageConflictsInput {
  pages: Map<string, PageSnapshot>;
  /** The pages with a conflict reported so far, by id. */
  conflicted: string[];
  deletedOn: ReadonlyMap<string, 'ours' | 'theirs'>;
  input: MergeInput;
  labels: MergeLabels;
  markdown: (hash: string | null) => Promise<string>;
  hash: (markdown: string) => string;
  /** The merge's new documents: read from, and written to. */
  documents: Map<string, string>;
}

/**
 * Writes page-level conflicts (a deletion against an edit, attributes changed differently on both sides) into the
 * documents of the merged document pages, as conflict blocks (`page-conflicts.ts`), into `documents`.
 */
async function writePageConflicts(args: PageConflictsInput): Promise<void> {
  const { pages, conflicted, deletedOn, input, labels, markdown, hash, documents } = args;
  for (const id of conflicted) {
    const page = pages.get(id);
    if (page?.kind !== 'document') continue;
    const [b, o, t] = [input.base.get(id), input.ours.get(id), input.theirs.get(id)];
    const deleting = deletedOn.get(id);
    const fields = o && t ? attributeConflicts(b, o, t) : [];
    if (!deleting && !fields.length) continue;
    const made = page.documentHash === null ? undefined : documents.get(page.documentHash);
    const current = made ?? (await markdown(page.documentHash));
    const text = deleting
      ? deletionConflictMarkdown(current, page, deleting, labels)
      : prependBlock(
          attributeConflictMarkdown(
            fields,
            { ours: o!, theirs: t!, oursTree: input.ours, theirsTree: input.theirs },
            labels,
          ),
          current,
        );
    page.documentHash = hash(text);
    documents.set(page.documentHash, text);
  }
}
