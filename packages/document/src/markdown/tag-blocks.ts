import type { Parents, Root, RootContent } from 'mdast';
import type { Handle, Options as ToMarkdownExtension } from 'mdast-util-to-markdown';
import { parseTag } from './tag-attributes.ts';

/**
 * Pairs opening and closing tags among siblings into container nodes, after parsing: GitBook's
 * `{% name … %}` … `{% endname %}` (liquidTag nodes, see liquid-syntax.ts) and the HTML blocks GitBook writes
 * around markdown (`<details>` … `</details>`, each alone in its HTML block). The pair and everything between
 * becomes `{ type: 'tagBlock', syntax, name, open, close, children }`; `open` and `close` are the tags as
 * written. A tag without its partner stays as it is (a raw liquidTag or html node): crossed or unbalanced tags
 * lose nothing. Pairing only looks at siblings, so a closing tag inside a list item does not close a block
 * opened outside the list.
 *
 * Linear: one pass over each list of siblings with a stack of open blocks (at most MAX_DEPTH deep: deeper
 * opening tags stay raw), and the tree is walked with a work list, not recursion.
 */

export interface TagBlock {
  type: 'tagBlock';
  syntax: 'liquid' | 'html';
  name: string;
  open: string;
  close: string;
  children: RootContent[];
  position?: import('unist').Position | undefined;
}

declare module 'mdast' {
  interface RootContentMap {
    tagBlock: TagBlock;
  }
  interface BlockContentMap {
    tagBlock: TagBlock;
  }
}

declare module 'mdast-util-to-markdown' {
  interface ConstructNameMap {
    tagBlock: 'tagBlock';
  }
}

export const MAX_DEPTH = 64;

/** HTML elements GitBook wraps around markdown blocks, each tag alone in its own HTML block. */
const HTML_OPEN = /^<(details)(?:\s[^<>]*)?>$/i;
const HTML_CLOSE = /^<\/(details)\s*>$/i;

interface TagRole {
  kind: 'open' | 'close';
  key: string;
}

export function roleOf(node: RootContent): TagRole | null {
  if (node.type === 'liquidTag') {
    const tag = parseTag(node.value);
    if (!tag) return null;
    if (tag.name.startsWith('end') && tag.name.length > 3 && tag.args.trim() === '') {
      return { kind: 'close', key: `liquid:${tag.name.slice(3)}` };
    }
    return { kind: 'open', key: `liquid:${tag.name}` };
  }
  if (node.type === 'html') {
    const value = node.value.trim();
    const open = HTML_OPEN.exec(value)?.[1];
    if (open) return { kind: 'open', key: `html:${open.toLowerCase()}` };
    const close = HTML_CLOSE.exec(value)?.[1];
    if (close) return { kind: 'close', key: `html:${close.toLowerCase()}` };
  }
  return null;
}

interface Frame {
  key: string;
  tag: RootContent | null;
  children: RootContent[];
}

const count = (map: Map<string, number>, key: string, by: number) => map.set(key, (map.get(key) ?? 0) + by);

function blockOf(frame: Frame, close: RootContent): TagBlock {
  const syntax = frame.key.startsWith('liquid:') ? 'liquid' : 'html';
  const open = frame.tag;
  const raw = (node: RootContent | null) =>
    node && (node.type === 'liquidTag' || node.type === 'html') ? node.value.trim() : '';
  const start = open?.position?.start;
  const end = close.position?.end;
  return {
    type: 'tagBlock',
    syntax,
    name: frame.key.slice(syntax.length + 1),
    open: raw(open),
    close: raw(close),
    children: frame.children,
    ...(start && end ? { position: { start, end } } : {}),
  };
}

/** The siblings with their balanced tags paired into tagBlocks (see above). */
export function pairSiblings(children: RootContent[]): RootContent[] {
  const roles = children.map(roleOf);
  const closesAhead = new Map<string, number>();
  for (const role of roles) if (role?.kind === 'close') count(closesAhead, role.key, 1);
  const openFrames = new Map<string, number>();
  const stack: Frame[] = [{ key: '', tag: null, children: [] }];
  const unwind = () => {
    const frame = stack.pop();
    const below = stack.at(-1);
    if (!frame || !below || !frame.tag) return;
    count(openFrames, frame.key, -1);
    below.children.push(frame.tag, ...frame.children);
  };
  children.forEach((node, i) => {
    const role = roles[i];
    if (
      role?.kind === 'open' &&
      (closesAhead.get(role.key) ?? 0) > (openFrames.get(role.key) ?? 0) &&
      stack.length <= MAX_DEPTH
    ) {
      stack.push({ key: role.key, tag: node, children: [] });
      count(openFrames, role.key, 1);
      return;
    }
    if (role?.kind === 'close') {
      count(closesAhead, role.key, -1);
      let at = stack.length - 1;
      while (at > 0 && stack[at]?.key !== role.key) at--;
      if (at > 0 && (openFrames.get(role.key) ?? 0) > 0) {
        while (stack.length - 1 > at) unwind();
        const frame = stack.pop();
        count(openFrames, role.key, -1);
        if (frame) stack.at(-1)?.children.push(blockOf(frame, node));
        return;
      }
    }
    stack.at(-1)?.children.push(node);
  });
  while (stack.length > 1) unwind();
  return stack[0]?.children ?? [];
}

/** Pairs the tags of every list of siblings in the tree, in place. */
export function pairTags(tree: Root): void {
  const work: { parent: Parents; pair: boolean }[] = [{ parent: tree, pair: true }];
  for (let next = work.pop(); next; next = work.pop()) {
    const { parent, pair } = next;
    if (pair) (parent as { children: RootContent[] }).children = pairSiblings(parent.children as RootContent[]);
    for (const child of parent.children) {
      if (child.type === 'tagBlock') work.push({ parent: child as unknown as Parents, pair: false });
      else if ('children' in child && child.type !== 'table') work.push({ parent: child, pair: true });
    }
  }
}

// ── Writing ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A tagBlock is written as its opening tag, its content and its closing tag. GitBook's tags sit right against
 * their content; HTML tags (and any block ending in raw HTML, which only a blank line ends) are set apart by
 * blank lines.
 */
const tagBlockHandle: Handle = (node: TagBlock, _parent, state, info) => {
  const inner =
    node.children.length > 0
      ? state.containerFlow(node as unknown as Parameters<typeof state.containerFlow>[0], info)
      : '';
  const loose = node.syntax === 'html';
  const last = node.children.at(-1);
  // a closing tag line ends an HTML block right above it (markdown-syntax's splitHtmlAtTags), as GitBook writes it
  const beforeClose = loose || (last?.type === 'tagBlock' && last.syntax === 'html') ? '\n\n' : '\n';
  if (inner === '') return `${node.open}\n${node.close}`;
  return `${node.open}${loose ? '\n\n' : '\n'}${inner}${beforeClose}${node.close}`;
};

export const tagBlockToMarkdown: ToMarkdownExtension = { handlers: { tagBlock: tagBlockHandle } };
