import { mergePage, survivesDeletion, type DocumentPlan } from './page-merge.ts';
import { repairStructure } from './structure.ts';
import { mergeText } from './text-merge.ts';
import { compareStrings, inTreeOrder, MERGE_FIELDS, type MergeField, type MergeInput, type MergeResult, type PageSnapshot } from './tree.ts';

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
 * Deterministic: pages are visited by id, every tie is broken by id, and the tree comes back in reading order.
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

  const ids = new Set<string>(base.keys());
  for (const id of ours.keys()) ids.add(id);
  for (const id of theirs.keys()) ids.add(id);
  const pages = new Map<string, PageSnapshot>();
  const textMerges: { page: PageSnapshot; plan: Extract<DocumentPlan, { kind: 'text' }> }[] = [];
  for (const id of [...ids].sort(compareStrings)) {
    const b = base.get(id);
    const o = ours.get(id);
    const t = theirs.get(id);
    if (o && t) {
      if (b === o) {
        pages.set(id, { ...t });
        continue;
      }
      if (b === t) {
        pages.set(id, { ...o });
        continue;
      }
      const merged = mergePage(b, o, t);
      for (const field of merged.conflicts) report(id, field);
      pages.set(id, merged.page);
      if (merged.document.kind === 'resolved') merged.page.documentHash = merged.document.hash;
      else textMerges.push({ page: merged.page, plan: merged.document });
    } else if (o || t) {
      const kept = (o ?? t)!;
      if (!b) pages.set(id, { ...kept }); // created on one side
      else if (survivesDeletion(b, kept)) {
        pages.set(id, { ...kept });
        report(id, 'deleted');
      }
    }
  }

  const documents = new Map<string, string>();
  const markdown = markdownCache(input.loadMarkdown);
  await Promise.all(
    textMerges.map(async ({ page, plan }) => {
      const [b, o, t] = await Promise.all([markdown(plan.base), markdown(plan.ours), markdown(plan.theirs)]);
      const merged = mergeText(b, o, t, labels);
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
    }),
  );

  repairStructure(pages, { base, ours, theirs }, report);

  const tree = new Map<string, PageSnapshot>();
  for (const page of inTreeOrder(pages)) tree.set(page.id, page);
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
