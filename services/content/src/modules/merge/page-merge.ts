import { ATTRIBUTE_FIELDS, pageChanged, sameValue, type AttributeField, type PageSnapshot } from './tree.ts';

/** Where a page's document comes from after its attributes are merged. */
export type DocumentPlan =
  | { kind: 'resolved'; hash: string | null }
  /** Changed differently on both sides: merge the texts (`base` null: added on both sides, merge two-way). */
  | { kind: 'text'; base: string | null; ours: string | null; theirs: string | null };

export interface PageMerge {
  /** The merged page, its `documentHash` still to be set when `document.kind` is `text`. */
  page: PageSnapshot;
  /** Attributes changed differently on both sides (theirs' value was kept). */
  conflicts: AttributeField[];
  document: DocumentPlan;
}

type Choice = 'same' | 'ours' | 'theirs' | 'conflict';

/** Three-way choice for one value; without a base (added on both sides) any difference is a conflict. */
function choose(base: unknown, ours: unknown, theirs: unknown, hasBase: boolean): Choice {
  if (sameValue(ours, theirs)) return 'same';
  if (!hasBase) return 'conflict';
  if (sameValue(ours, base)) return 'theirs';
  if (sameValue(theirs, base)) return 'ours';
  return 'conflict';
}

function planDocument(base: string | null | undefined, ours: string | null, theirs: string | null): DocumentPlan {
  if (ours === theirs) return { kind: 'resolved', hash: ours };
  if (base !== undefined && base === ours) return { kind: 'resolved', hash: theirs };
  if (base !== undefined && base === theirs) return { kind: 'resolved', hash: ours };
  return { kind: 'text', base: base ?? null, ours, theirs };
}

/**
 * Merges a page present on both sides, field by field against the base (`base` undefined: the page was added
 * on both sides with the same id, merged two-way). A field changed on one side takes that side; changed
 * identically, that value; changed differently, a conflict: the page keeps THEIRS' value for the attribute (the
 * incoming side wins scalar attributes; nothing of the document is dropped, see `mergeText`) and the field is
 * reported.
 *
 * `order` only means something next to `parentId`: when the sides disagree on `order` but only one side moved
 * the page to another parent, the page takes the order of the side whose parent it ends up in.
 */
export function mergePage(base: PageSnapshot | undefined, ours: PageSnapshot, theirs: PageSnapshot): PageMerge {
  const hasBase = base !== undefined;
  const page: PageSnapshot = { ...theirs };
  const conflicts: AttributeField[] = [];
  let parentFrom: Choice = 'same';
  for (const field of ATTRIBUTE_FIELDS) {
    const choice = choose(base?.[field], ours[field], theirs[field], hasBase);
    if (field === 'parentId') parentFrom = choice;
    if (choice === 'ours') assign(page, ours, field);
    else if (choice === 'conflict') {
      conflicts.push(field);
      if (field === 'order' && parentFrom === 'ours') assign(page, ours, field);
    }
  }
  return { page, conflicts, document: planDocument(base?.documentHash, ours.documentHash, theirs.documentHash) };
}

function assign<K extends AttributeField>(target: PageSnapshot, source: PageSnapshot, field: K): void {
  target[field] = source[field];
}

/** A page deleted on one side: kept (as the other side has it) only when the other side edited it. */
export function survivesDeletion(base: PageSnapshot, kept: PageSnapshot): boolean {
  return pageChanged(base, kept);
}
