import type { Root, RootContent } from 'mdast';
import { markdownParser } from './markdown-syntax.ts';

/**
 * The character ranges (`[start, end)` offsets) of the code of a markdown text: fenced and indented code blocks
 * and code spans, where markdown's syntax is text (a comment's `@[Label](id)` there is not a mention).
 */
export function codeRanges(markdown: string): [number, number][] {
  if (!markdown.includes('`') && !markdown.includes('~~~') && !/^( {4}|\t)/m.test(markdown)) return [];
  const ranges: [number, number][] = [];
  const walk = (nodes: readonly RootContent[]) => {
    for (const node of nodes) {
      if ((node.type === 'code' || node.type === 'inlineCode') && node.position)
        ranges.push([node.position.start.offset!, node.position.end.offset!]);
      else if ('children' in node) walk(node.children as RootContent[]);
    }
  };
  walk((markdownParser.parse(markdown) as Root).children);
  return ranges;
}
