import type { DocumentBlockTopLevel, JSONDocument } from '@quire/contracts';
import { conflictMarkdown, documentToMarkdown } from '@quire/document/model';
import {
  ATTRIBUTE_FIELDS,
  pathOf,
  sameValue,
  type AttributeField,
  type MergeLabels,
  type PageSnapshot,
  type TreeSnapshot,
} from './tree.ts';

/**
 * Page-level conflicts written as conflict blocks, so that a change request keeps both versions of a page whose
 * attributes or existence changed on both sides (see docs/change-requests.md):
 *
 * - deleted on one side, edited on the other: the page is kept, its whole document inside one conflict block whose
 *   side for the deleting side is empty (resolve by keeping the content, or by deleting the page);
 * - an attribute changed differently on both sides (title, parent, slug, emoji, description…): the page takes the
 *   incoming side's value (`theirs`), and a conflict block at the top of the document lists each side's value, one
 *   paragraph per attribute (`Title: …`, `Parent: …`), so the other value is not lost.
 *
 * Sibling order (`order`) is not one of them: it is settled by the merge (theirs' place), as it has no value a
 * person could read back. Groups and links have no document to hold a block: their conflicts are settled too.
 */

/** Attributes shown in a page-level conflict block, with the label each paragraph starts with. */
const SHOWN: Partial<Record<AttributeField, string>> = {
  kind: 'Type',
  parentId: 'Parent',
  title: 'Title',
  slug: 'Slug',
  emoji: 'Emoji',
  icon: 'Icon',
  description: 'Description',
  hidden: 'Hidden',
  noIndex: 'Hidden from search',
  noRobotsIndex: 'Hidden from search engines',
  layout: 'Layout',
  cover: 'Cover',
  href: 'Link',
};

/** The attributes both sides changed to different values (`base` undefined: added on both sides). */
export function attributeConflicts(
  base: PageSnapshot | undefined,
  ours: PageSnapshot,
  theirs: PageSnapshot,
): AttributeField[] {
  return ATTRIBUTE_FIELDS.filter((f) => {
    if (!SHOWN[f] || sameValue(ours[f], theirs[f])) return false;
    return !base || (!sameValue(base[f], ours[f]) && !sameValue(base[f], theirs[f]));
  });
}

const paragraph = (label: string, value: string): DocumentBlockTopLevel =>
  ({
    object: 'block',
    type: 'paragraph',
    nodes: [
      {
        object: 'text',
        leaves: [
          { object: 'leaf', text: `${label}: `, marks: [{ object: 'mark', type: 'bold' }] },
          { object: 'leaf', text: value, marks: [] },
        ],
      },
    ],
  }) as DocumentBlockTopLevel;

const render = (nodes: DocumentBlockTopLevel[]) =>
  nodes.length ? documentToMarkdown({ object: 'document', data: {}, nodes } as JSONDocument) : '';

function shown(field: AttributeField, value: unknown, tree: TreeSnapshot): string {
  if (field === 'parentId') {
    const parent = typeof value === 'string' ? tree.get(value) : undefined;
    return parent
      ? `${parent.title} (/${pathOf(tree, parent.id) ?? parent.slug})`
      : value
        ? String(value)
        : '(top level)';
  }
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The conflict block listing each side's value of `fields`. */
export function attributeConflictMarkdown(
  fields: AttributeField[],
  sides: { ours: PageSnapshot; theirs: PageSnapshot; oursTree: TreeSnapshot; theirsTree: TreeSnapshot },
  labels: MergeLabels,
): string {
  const side = (page: PageSnapshot, tree: TreeSnapshot) =>
    render(fields.map((f) => paragraph(SHOWN[f]!, shown(f, page[f], tree))));
  return conflictMarkdown([
    { title: labels.ours, markdown: side(sides.ours, sides.oursTree) },
    { title: labels.theirs, markdown: side(sides.theirs, sides.theirsTree) },
  ]);
}

/**
 * A page deleted on `deletedOn`'s side and edited on the other, kept: its whole markdown inside a conflict block,
 * the deleting side empty. A kept page with no text shows its title, so the kept side is never empty.
 */
export function deletionConflictMarkdown(
  markdown: string,
  kept: PageSnapshot,
  deletedOn: 'ours' | 'theirs',
  labels: MergeLabels,
): string {
  const content = markdown.trim() ? markdown : render([paragraph('Title', kept.title)]);
  return conflictMarkdown([
    { title: labels.ours, markdown: deletedOn === 'ours' ? '' : content },
    { title: labels.theirs, markdown: deletedOn === 'theirs' ? '' : content },
  ]);
}

/** `block` then `markdown`, as one document's markdown. */
export function prependBlock(block: string, markdown: string): string {
  const rest = markdown.replace(/^\n+/, '');
  return `${block.replace(/\n+$/, '')}\n${rest ? `\n${rest}` : ''}`;
}
