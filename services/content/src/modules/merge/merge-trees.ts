import { mergePage, survivesDeletion, type DocumentPlan } from './page-merge.ts';
import { repairStructure } from './structure.ts';
import { mergeText } from './text-merge.ts';
import { compareStrings, MERGE_FIELDS, pageChanged, readingOrder, type MergeField, type MergeInput, type MergeResult, type PageSnapshot } from './tree.ts';

const DEFAULT_LABELS = { ours: 'ours', theirs: 'theirs' };

/**
 * Three-way merge of two revisions' page trees against their merge base (GitBook semantics: nothing is lost).
 *
 * Structure first, by page id: a page created on one side is kept; deleted on one side and untouched on the
 * other, deleted; deleted on one side and edited on the other, kept as edited (reported as a `deleted`
 * conflict); deleted on both, deleted. Pages on both sides merge field by field (`mergePage`); documents changed
 * on both sides merge as text (`mergeText`), and only those documents are loaded. The result is then made a
 * tree again (`repairStructure`: orphans re-attached, cycles broken, orders and slugs made distinct).
 *
 * `hash` names new documents (merged text, text with conflict markers); they are returned in `documents`.
 * Deterministic: every tie is broken by id, new documents are listed by page id, and the tree comes back in
 * reading order, whatever the insertion order of the input maps.
 */
export async function mergeTrees(input: MergeInput, hash: (markdown: string) => string): Promise<MergeResult> {
  const { base, ours, theirs } = input;
  const labels = input.labels ?? DEFAULT_LABELS;
  const conflicts = new Map<string, Set<MergeField>>();
  const report = (pageId: string, field: MergeField) => {
    const fields = conflicts.get(pageId);
    if (fields) fields.add(field);
    else conflicts.set(pageId, new Set([field]));
  };

  const pages = new Map<string, PageSnapshot>();
  const textMerges: { page: PageSnapshot; plan: Extract<DocumentPlan, { kind: 'text' }> }[] = [];
  // Visit order does not matter: every later step sorts (by order, slug or id), so the result does not depend on
  // the maps' insertion order.
  for (const [id, o] of ours) {
    const b = base.get(id);
    const t = theirs.get(id);
    if (!t) {
      keepOneSide(id, b, o);
      continue;
    }
    // Unchanged on one side (most pages): the other side's page, as is.
    if (b && !pageChanged(b, o)) {
      pages.set(id, { ...t });
      continue;
    }
    if (b && !pageChanged(b, t)) {
      pages.set(id, { ...o });
      continue;
    }
    const merged = mergePage(b, o, t);
    for (const field of merged.conflicts) report(id, field);
    pages.set(id, merged.page);
    if (merged.document.kind === 'resolved') merged.page.documentHash = merged.document.hash;
    else textMerges.push({ page: merged.page, plan: merged.document });
  }
  for (const [id, t] of theirs) if (!ours.has(id)) keepOneSide(id, base.get(id), t);
  // (A page only in the base was deleted on both sides.)

  /** A page on one side only: created there (kept), or deleted on the other side (kept only when edited). */
  function keepOneSide(id: string, b: PageSnapshot | undefined, kept: PageSnapshot): void {
    if (!b) pages.set(id, { ...kept });
    else if (survivesDeletion(b, kept)) {
      pages.set(id, { ...kept });
      report(id, 'deleted');
    }
  }

  const markdown = markdownCache(input.loadMarkdown);
  const texts = await Promise.all(
    textMerges.map(async ({ plan }) => {
      const [b, o, t] = await Promise.all([markdown(plan.base), markdown(plan.ours), markdown(plan.theirs)]);
      return { o, t, merged: mergeText(b, o, t, labels) };
    }),
  );
  const documents = new Map<string, string>();
  const order = textMerges.map((_, i) => i).sort((i, j) => compareStrings(textMerges[i]!.page.id, textMerges[j]!.page.id));
  for (const i of order) {
    const { page, plan } = textMerges[i]!;
    const { o, t, merged } = texts[i]!;
    if (merged.conflict) report(page.id, 'document');
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

  const children = repairStructure(pages, { base, ours, theirs }, report);

  const tree = new Map<string, PageSnapshot>();
  for (const page of readingOrder(children, pages)) tree.set(page.id, page);
  return {
    tree,
    documents,
    conflicts: [...conflicts]
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([pageId, fields]) => ({ pageId, fields: MERGE_FIELDS.filter((f) => fields.has(f)) })),
  };
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
