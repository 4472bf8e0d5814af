import { conflictsIn, mergeBlocks, type MergeLabels } from '@quire/document/model';
import { sameReusableContent, type ReusableContentRecord } from '../revisions/revision-tree.ts';

type Records = ReadonlyMap<string, ReusableContentRecord>;

export interface ReusableContentMergeInput {
  base: Records;
  ours: Records;
  theirs: Records;
  loadMarkdown(hash: string): Promise<string>;
  labels: MergeLabels;
  now: Date;
}

export interface ReusableContentMerge {
  records: Map<string, ReusableContentRecord>;
  /** New documents (merged texts, texts with conflict blocks), by hash. */
  documents: Map<string, string>;
  /** The reusable contents whose documents both sides changed in the same blocks (kept with conflict blocks). */
  conflicts: ReusableContentRecord[];
}

/** The document of a record ('' when it has none). */
const textOf = (input: ReusableContentMergeInput, r: ReusableContentRecord | undefined) =>
  r?.documentHash ? input.loadMarkdown(r.documentHash) : Promise.resolve('');

/**
 * One reusable content on three sides (undefined: absent there). Changed on one side: that side (a deletion too,
 * unless the other side edited it: then it is kept as edited, nothing is lost). Changed on both: the title of the
 * side that changed it (theirs when both did), the documents merged block by block (`mergeBlocks`, as pages').
 */
async function mergeOne(
  input: ReusableContentMergeInput,
  hash: (markdown: string) => string,
  [b, o, t]: (ReusableContentRecord | undefined)[],
): Promise<{ record: ReusableContentRecord | undefined; document?: [string, string]; conflict: boolean }> {
  const same = (x: ReusableContentRecord | undefined, y: ReusableContentRecord | undefined) =>
    x === y || (!!x && !!y && sameReusableContent(x, y));
  if (same(o, t) || same(b, t)) return { record: o, conflict: false };
  if (same(b, o)) return { record: t, conflict: false };
  if (!o || !t) return { record: o ?? t, conflict: false };
  const title = b && o.title !== b.title && t.title === b.title ? o.title : t.title;
  const [base, ours, theirs] = await Promise.all([textOf(input, b), textOf(input, o), textOf(input, t)]);
  const merged = mergeBlocks(base, ours, theirs, input.labels);
  const documentHash = merged.text.trim() ? hash(merged.text) : null;
  const record = { ...t, title, documentHash, createdAt: o.createdAt, updatedAt: input.now };
  return {
    record,
    ...(documentHash ? { document: [documentHash, merged.text] as [string, string] } : {}),
    conflict: merged.conflicts > 0,
  };
}

/**
 * Three-way merge of the reusable contents of two revisions against their merge base, by id (a space holds few:
 * the whole sets are compared). A conflict is a reusable content both sides changed in the same blocks: it is kept
 * with conflict blocks holding both sides (an update writes it so; a merge is refused).
 */
export async function mergeReusableContents(
  input: ReusableContentMergeInput,
  hash: (markdown: string) => string,
): Promise<ReusableContentMerge> {
  const out: ReusableContentMerge = { records: new Map(), documents: new Map(), conflicts: [] };
  const ids = [...new Set([...input.ours.keys(), ...input.theirs.keys(), ...input.base.keys()])].sort();
  for (const id of ids) {
    const sides = [input.base.get(id), input.ours.get(id), input.theirs.get(id)];
    const { record, document, conflict } = await mergeOne(input, hash, sides);
    if (!record) continue;
    out.records.set(id, record);
    if (document) out.documents.set(...document);
    if (conflict) out.conflicts.push(record);
  }
  return out;
}

/** The reusable contents of `after` that hold conflict blocks, among those whose document differs from `before`'s. */
export async function reusableContentsWithConflictBlocks(
  after: Records,
  before: Records,
  loadMarkdown: (hash: string) => Promise<string>,
): Promise<ReusableContentRecord[]> {
  const changed = [...after.values()].filter(
    (r) => r.documentHash && before.get(r.id)?.documentHash !== r.documentHash,
  );
  const texts = await Promise.all(changed.map((r) => loadMarkdown(r.documentHash!)));
  return changed.filter((_, i) => conflictsIn(texts[i]!) > 0);
}

/** Reusable contents named in a message: `"Intro" and "Setup"`. */
export const reusableContentNames = (records: ReusableContentRecord[]) =>
  records.map((r) => JSON.stringify(r.title)).join(', ');
