import type { DocumentBlockConflict, DocumentBlockTopLevel } from '@quire/contracts/document';
import { documentToMarkdown } from './markdown/document-to-markdown.ts';
import { markdownToDocument } from './markdown/markdown-to-document.ts';

/**
 * Merge conflicts in a page (Quire's own block, in GitBook's tag style):
 *
 *     {% conflict %}
 *     {% conflict-side title="main" %}
 *     …main's blocks…
 *     {% endconflict-side %}
 *     {% conflict-side title="change request #3" %}
 *     …the change request's blocks…
 *     {% endconflict-side %}
 *     {% endconflict %}
 */

/** The normalised markdown of one conflict block whose sides hold the given markdown (a side may be empty). */
export function conflictMarkdown(sides: { title: string; markdown: string }[]): string {
  const conflict: DocumentBlockConflict = {
    object: 'block',
    type: 'conflict',
    data: {},
    isVoid: false,
    nodes: sides.map((side) => ({
      object: 'block',
      type: 'conflict-side',
      data: { title: side.title },
      isVoid: false,
      nodes: markdownToDocument(side.markdown).nodes,
    })),
  };
  return documentToMarkdown({ object: 'document', data: {}, nodes: [conflict] });
}

/** How many conflict blocks a page's markdown holds (0 when every conflict is resolved). */
export function conflictsIn(markdown: string): number {
  if (!markdown.includes('conflict')) return 0;
  return countConflicts(markdownToDocument(markdown).nodes);
}

function countConflicts(nodes: readonly DocumentBlockTopLevel[]): number {
  let count = 0;
  for (const node of nodes) if (node.type === 'conflict') count++;
  return count;
}
