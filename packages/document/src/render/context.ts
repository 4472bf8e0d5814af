import GithubSlugger from 'github-slugger';
import type { RevisionFile } from '@quire/contracts';
import type { DocumentBlock, DocumentBlockParagraph } from '@quire/contracts/document';
import { phrasingText, textOf } from '../document-outline.ts';

/**
 * A node of GitBook's JSON document as the renderer reads it: the contract's typed document (`JSONDocument`), read
 * loosely so that a block of a type the contract does not know yet (a document from another GitBook version)
 * still renders as its text rather than failing the page.
 */
export interface DocNode {
  object?: string;
  type?: string;
  key?: string;
  data?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  nodes?: DocNode[];
  leaves?: { text?: string; marks?: { type?: string; data?: Record<string, unknown> }[] }[];
  fragments?: DocNode[];
  fragment?: string;
  isVoid?: boolean;
}

/** A reference of a link, image, mention or content-ref (GitBook's `ContentRef`), read loosely. */
export type Ref = { kind?: string; url?: string; file?: string; page?: string; anchor?: string; space?: string };

/** Where a link goes on the published site, and its label when it has one. */
export interface Target {
  href: string;
  title?: string;
}

/** What rendering a page's document needs to know about the site around it. */
export interface RenderContext {
  /** The files of the page's revision, by id (signed download links). */
  files: ReadonlyMap<string, RevisionFile>;
  /** A page reference (`{kind: 'page' | 'anchor' | 'space'}`) as a URL of the site; null when not on it. */
  resolveRef(ref: Ref): Target | null;
  /** A relative URL of the markdown (`../guides/setup.md#a`) as a URL of the site, null when it names no page. */
  resolveRelative(url: string): string | null;
  /** The revision's variables (`space.vars.x` expressions). */
  variables: Readonly<Record<string, string>>;
  /** Whether an `if` block's condition holds for the reader (the site evaluates it against the visitor's claims). */
  conditionHolds(expression: string): boolean;
  /** Reports a node the renderer does not know (once per type per process). */
  logUnknown(type: string): void;
  /**
   * Where an action button (GitBook's `<button data-action="search|ask" data-query>`) leads without a script: the
   * site's search page with the query; null (or absent) when nowhere, the button then shown as its label.
   */
  actionHref?: ((action: { action: string; query?: string | undefined }) => string | null) | undefined;
  /**
   * The URL of a Font Awesome icon's SVG (GitBook's `icon` inline names one: `book-open`); null (or absent) when the
   * name is no icon the instance has, the inline then drawing nothing.
   */
  iconUrl?: ((name: string) => string | null) | undefined;
  /** The page's headings as rendered, for the outline. */
  headings: { id: string; text: string; level: number }[];
  slugger: GithubSlugger;
  /** A counter for ids the page needs (tab groups). */
  nextId(prefix: string): string;
  /** The page's footnotes (annotations) in the order they are referenced, shown after the document. */
  footnotes: string[];
  /**
   * Whether what is rendered is inside a link (a card whose whole body is its link): links, mentions and buttons are
   * then their text, since a link holds no other link.
   */
  inLink?: boolean;
}

export function newRenderContext(
  props: Omit<RenderContext, 'headings' | 'slugger' | 'nextId' | 'footnotes'>,
): RenderContext {
  let n = 0;
  return {
    ...props,
    headings: [],
    slugger: new GithubSlugger(),
    nextId: (prefix) => `${prefix}-${++n}`,
    footnotes: [],
  };
}

/** How the page reads inline content as text: images and emoji leave none, nor does an expression. */
const READING = { image: () => '', emoji: () => '', expression: () => '' };

/** The text of inline content (a heading's, a link's) as a reader sees it. */
export const inlineText = (nodes: readonly DocNode[] | undefined): string =>
  phrasingText((nodes ?? []) as unknown as DocumentBlockParagraph['nodes'], READING);

/** The plain text of blocks (a caption, a note, a block the renderer does not know): the package's `textOf`. */
export const blocksText = (nodes: readonly DocNode[] | undefined): string =>
  textOf({ nodes: (nodes ?? []) as unknown as readonly DocumentBlock[] });
