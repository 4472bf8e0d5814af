import type { DocumentBlock, DocumentBlockTopLevel } from '@quire/contracts/document';
import { emptyParagraph } from './md-context.ts';

/**
 * What each GitBook container may hold (GitBook's schema: the `nodes` of each container). A block a container
 * may not hold is lifted out of it, splitting the container around it, so nothing is dropped.
 */
export type AnyBlock = DocumentBlock;

const ESSENTIALS = [
  'paragraph',
  'html',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'divider',
];
const TABS_ITEM = [
  ...ESSENTIALS,
  'prompt',
  'content-ref',
  'code',
  'embed',
  'file',
  'images',
  'drawing',
  'hint',
  'blockquote',
  'math',
  'integration',
];
export const HOLDS: Record<string, ReadonlySet<string>> = {
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  hint: new Set([...ESSENTIALS, 'embed', 'integration', 'table']),
  'tabs-item': new Set(TABS_ITEM),
  // GitBook's editor puts tabs in steps (its published schema does not list them): they stay there.
  'stepper-step': new Set([...TABS_ITEM, 'expandable', 'tabs']),
  update: new Set([...TABS_ITEM, 'expandable', 'tabs']),
  column: new Set([
    ...ESSENTIALS,
    'prompt',
    ...[
      'images',
      'code',
      'hint',
      'content-ref',
      'drawing',
      'embed',
      'file',
      'integration',
      'math',
      'blockquote',
      'table',
    ],
    ...['expandable', 'stepper'],
  ]),
  expandable: new Set([
    ...ESSENTIALS,
    'file',
    'images',
    'code',
    'table',
    'hint',
    'blockquote',
    'reusable-content',
    'integration',
  ]),
  annotation: new Set([...ESSENTIALS, 'code']),
};

/** Whether a container of this type may hold a block of that type (the document, `if` and conflict sides hold any). */
export const holds = (container: string, type: string) => HOLDS[container]?.has(type) ?? true;

/**
 * Wraps the blocks the container may hold in that container (`wrap`); a block it may not hold is lifted out
 * between two containers. An empty container holds one empty paragraph. (Typed as top-level blocks: the
 * items of tabs, steppers and columns it also makes are grouped right away by their callers.)
 */
export function contain<C>(
  container: string,
  blocks: readonly AnyBlock[],
  wrap: (nodes: C[]) => AnyBlock,
): DocumentBlockTopLevel[] {
  const out: AnyBlock[] = [];
  let run: C[] = [];
  for (const b of blocks) {
    if (holds(container, b.type)) {
      run.push(b as C);
      continue;
    }
    if (run.length > 0) out.push(wrap(run));
    run = [];
    out.push(b);
  }
  if (run.length > 0) out.push(wrap(run));
  if (blocks.length === 0) out.push(wrap([emptyParagraph() as C]));
  return out as DocumentBlockTopLevel[];
}
