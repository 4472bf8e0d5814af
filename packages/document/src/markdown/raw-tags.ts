import type { Parents, Root, RootContent } from 'mdast';
import { roleOf } from './tag-blocks.ts';

/**
 * A tag line kept as text (a paragraph holding only `{% … %}`, see rawTagLine) is written back verbatim, so an
 * unknown or unbalanced tag round-trips byte for byte. Written verbatim, it could pair on the next read; then
 * it is written as escaped text instead (`\{% endhint %}`), which reads back as the same text. The writer
 * checks which form means what the document says (documentToMarkdown); these give the candidates.
 */

/** Whether the mdast about to be written holds tag lines kept as text. */
export function hasRawTags(tree: Root): boolean {
  const work: Parents[] = [tree];
  for (let parent = work.pop(); parent; parent = work.pop()) {
    for (const child of parent.children as RootContent[]) {
      if (child.type === 'liquidTag' && child.raw) return true;
      if (child.type === 'tagBlock' || (FLOW_PARENTS.has(child.type) && 'children' in child))
        work.push(child as Parents);
    }
  }
  return false;
}

/**
 * A copy of the tree with tag lines kept as text made escaped paragraphs: all of them, or the `pairable` ones,
 * those whose list of siblings (through the blocks written with tags, which share it) holds a block of the
 * same tag name, or both an opening and a closing line of that name.
 */
export function escapeRawTags(tree: Root, which: 'all' | 'pairable'): Root {
  const copy = structuredClone(tree);
  const levels: Parents[] = [copy];
  for (let level = levels.pop(); level; level = levels.pop()) {
    const raws: { parent: Parents; index: number; key: string; kind: 'open' | 'close' }[] = [];
    const blocks = new Set<string>();
    const within: Parents[] = [level];
    for (let parent = within.pop(); parent; parent = within.pop()) {
      parent.children.forEach((child: RootContent, index) => {
        if (child.type === 'liquidTag' && child.raw) {
          raws.push({ parent, index, ...(roleOf(child) ?? { key: '', kind: 'open' }) });
        } else if (child.type === 'tagBlock') {
          blocks.add(`${child.syntax}:${child.name}`);
          within.push(child as unknown as Parents);
        } else if (FLOW_PARENTS.has(child.type) && 'children' in child) {
          levels.push(child);
        }
      });
    }
    const opens = new Set(raws.filter((r) => r.kind === 'open').map((r) => r.key));
    const closes = new Set(raws.filter((r) => r.kind === 'close').map((r) => r.key));
    for (const raw of raws) {
      const pairable = blocks.has(raw.key) || (opens.has(raw.key) && closes.has(raw.key));
      if (which === 'pairable' && !pairable) continue;
      const node = raw.parent.children[raw.index];
      if (node?.type !== 'liquidTag') continue;
      (raw.parent.children as RootContent[])[raw.index] = {
        type: 'paragraph',
        children: [{ type: 'text', value: node.value }],
      };
    }
  }
  return copy;
}

/** Nodes whose children are blocks (a new list of siblings for pairing). */
const FLOW_PARENTS = new Set(['blockquote', 'list', 'listItem', 'footnoteDefinition']);
