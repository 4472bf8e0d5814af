/**
 * The markdown syntax tree (mdast) of GitBook's dialect, for the few readers that need markdown's own structure
 * rather than the document: Git Sync reads a `SUMMARY.md`'s nested lists and rewrites links where they stand in
 * the source. The parsing is this package's (`parseMarkdown`, GitBook's tags paired); no other package imports
 * remark, micromark or mdast.
 */
export type { Heading, Link, List, ListItem, Parents, PhrasingContent, Root, RootContent } from 'mdast';
export type { Node } from 'unist';
export { visit } from 'unist-util-visit';
export { markdownParser, parseMarkdown, stringifyMarkdown } from './markdown/markdown-syntax.ts';
