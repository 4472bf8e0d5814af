// A page's two versions (at the merge base, in the change request) drawn by the published site's renderer
// (app/src/render/page.ts, its own chunk with the site's stylesheet): each side in one pass, cut block by block
// (marks.ts), the change request's side with the markers that let a selection find its block.
import type { JSONDocument } from '@quire/document/render';
import { type ChangeRequest, changesApi, type Page } from '../../api/changes.ts';
import { api, type RevisionFile, type RevisionPages } from '../../api/endpoints.ts';
import type { Node } from '../../render/node.ts';
import { anchorsOf } from './anchors.ts';
import { MAX_BLOCKS } from './blocks.ts';
import { cut, separator, withMarkers } from './marks.ts';
import { sidesOf } from './resolve.ts';

/** The renderer's chunk, zod set up first (see render/jitless.ts). */
const renderer = () => import('../../render/jitless.ts').then(() => import('../../render/page.ts'));
type Renderer = Awaited<ReturnType<typeof renderer>>;

/** A page's blocks (its JSON document's top-level blocks); none for a page without a document. */
export const blocksOf = (p: Page | undefined): Node[] =>
  (p && 'document' in p ? ((p.document as { nodes?: Node[] } | undefined)?.nodes ?? []) : []) as Node[];

/** The merge base of a change request: the main revision it was created from or last updated to. */
export const baseOf = (cr: ChangeRequest) => cr.revisionMergedAncestor ?? cr.revisionInitial;

/** A side's revision as links and files need it: its pages, its files, its URL in the app. */
interface Side {
  pages: RevisionPages['pages'];
  files: RevisionFile[];
  base: string;
}

/** A page's comparison drawn: each block's HTML on each side, the notes after them, each conflict's sides. */
export interface Drawn {
  before: Node[];
  after: Node[];
  beforeHtml: string[];
  afterHtml: string[];
  /** What the renderer draws after the change request's blocks (the footnotes). */
  tail: string;
  /** The HTML of each side of each top-level conflict block (by the block). */
  conflicts: Map<Node, string[]>;
  toNodes(html: string): DocumentFragment;
}

async function drawSide(r: Renderer, blocks: Node[], side: Side, path: string, marked: boolean) {
  const nodes = blocks.flatMap((b) => [marked ? withMarkers(b, anchorsOf(b, '')) : b, separator()]);
  const document = { object: 'document', data: {}, nodes } as unknown as JSONDocument;
  return cut(await r.renderPageHtml({ document, path, ...side }), blocks.length);
}

const documentOf = (nodes: Node[]) => ({ object: 'document', data: {}, nodes }) as unknown as JSONDocument;

/**
 * A page of a change request (`page`, at `path`) before and after, read and drawn: `before` when the page existed
 * at the merge base, `after` while the change request holds it. Links go to the app's URLs of each side's pages.
 */
export async function drawComparison(args: {
  org: string;
  space: string;
  cr: ChangeRequest;
  page: string;
  path: string;
  before: boolean;
  after: boolean;
}): Promise<Drawn> {
  const { org, space, cr, page, path } = args;
  const base = baseOf(cr);
  const where = { space, changeRequest: cr.id };
  const [r, beforePage, afterPage, beforeSide, afterSide] = await Promise.all([
    renderer(),
    args.before ? changesApi.pageInRevision(space, base, page) : undefined,
    args.after ? changesApi.pageInChangeRequest(space, cr.id, page) : undefined,
    args.before
      ? Promise.all([changesApi.revisionPages(space, base), changesApi.revisionFiles(space, base).catch(() => [])])
      : undefined,
    args.after ? Promise.all([api.pages(where), api.files(where).catch(() => [])]) : undefined,
  ]);
  const before = blocksOf(beforePage);
  const after = blocksOf(afterPage);
  if (before.length + after.length > MAX_BLOCKS)
    return { before, after, beforeHtml: [], afterHtml: [], tail: '', conflicts: new Map(), toNodes: r.toNodes };
  const sideOf = (s: typeof beforeSide, url: string): Side => ({
    pages: s?.[0].pages ?? [],
    files: (s?.[1] ?? []) as RevisionFile[],
    base: url,
  });
  const main = sideOf(beforeSide, `/o/${org}/s/${space}`);
  const mine = sideOf(afterSide, `/o/${org}/s/${space}/~/changes/${cr.number}`);
  const [b, a] = await Promise.all([drawSide(r, before, main, path, false), drawSide(r, after, mine, path, true)]);
  const conflicts = new Map<Node, string[]>();
  await Promise.all(
    [...before.map((n) => [n, main] as const), ...after.map((n) => [n, mine] as const)]
      .filter(([n]) => n.type === 'conflict')
      .map(async ([n, side]) => {
        const sides = sidesOf(n);
        const html = await Promise.all(
          sides.map((s) => r.renderPageHtml({ document: documentOf(s.nodes as Node[]), path, ...side })),
        );
        conflicts.set(n, html);
      }),
  );
  return {
    before,
    after,
    beforeHtml: b.blocks,
    afterHtml: a.blocks,
    tail: a.tail,
    conflicts,
    toNodes: r.toNodes,
  };
}
