import GithubSlugger from 'github-slugger';
import type { RevisionFile } from '@quire/contracts';
import type { ConditionContext, ConditionLogger } from '@quire/kit';

/** A loose node of GitBook's JSON document: blocks, inlines, texts, fragments (the renderer reads what it knows). */
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
  visitor: ConditionContext;
  logCondition: ConditionLogger;
  /** Reports a node the renderer does not know (once per type per process). */
  logUnknown(type: string): void;
  /** The page's headings as rendered, for the outline. */
  headings: { id: string; text: string; level: number }[];
  slugger: GithubSlugger;
  /** A counter for ids the page needs (tab groups). */
  nextId(prefix: string): string;
  /** The page's footnotes (annotations) in the order they are referenced, shown after the document. */
  footnotes: string[];
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

/** The plain text of a node and everything under it (leaves, inlines, fragments). */
export function textOf(node: DocNode | undefined, depth = 0): string {
  if (!node || depth > 64) return '';
  if (node.leaves) return node.leaves.map((l) => l.text ?? '').join('');
  const own =
    typeof node.data?.formula === 'string'
      ? node.data.formula
      : typeof node.data?.label === 'string'
        ? node.data.label
        : '';
  const children = [...(node.nodes ?? []), ...(node.fragments ?? [])].map((n) => textOf(n, depth + 1));
  const isBlock = node.object === 'block' || node.object === 'fragment' || node.object === 'document';
  return own + children.join(isBlock ? '\n' : '');
}
