import type { ChangedRevisionPage, RevisionSemanticChange, RevisionSemanticChanges } from '@quire/contracts';
import { inTreeOrder, pathOf, sameValue, type PageSnapshot, type TreeSnapshot } from './tree.ts';

type EditedChange = Extract<RevisionSemanticChange, { type: 'page_edited' }>;
type Attributes = EditedChange['attributes'];

/**
 * The semantic changes from `base` to `head` that GitBook's `GET …/change-requests/{cr}/changes` reports:
 * `page_created`, `page_edited` (the attributes GitBook has for the page's type, with their values before and
 * after; `document` when the content changed), `page_moved` (another parent, or another place among the
 * siblings) and `page_deleted`. Pages come in `head`'s reading order, then the deleted pages in `base`'s.
 *
 * Changes GitBook's schemas have no attribute for (`hidden`, `noIndex`, `noRobotsIndex`, `icon`, a link's
 * description or slug, the kind alone) are not reported. A document whose hash changed between null and a hash
 * is loaded to tell an empty document from a changed one; no other markdown is read.
 */
export async function diffTrees(
  base: TreeSnapshot,
  head: TreeSnapshot,
  loadMarkdown: (hash: string) => Promise<string>,
): Promise<RevisionSemanticChange[]> {
  const describe = describer(base, head);
  const changes: RevisionSemanticChange[] = [];
  for (const page of inTreeOrder(head)) {
    const before = base.get(page.id);
    if (!before) {
      changes.push({ type: 'page_created', page: describe.head(page) });
      continue;
    }
    const attributes = await changedAttributes(before, page, loadMarkdown);
    if (attributes) changes.push({ type: 'page_edited', page: describe.head(page), attributes });
    if (before.parentId !== page.parentId || before.order !== page.order) {
      const parentBefore = before.parentId === null ? undefined : base.get(before.parentId);
      const parentAfter = page.parentId === null ? undefined : head.get(page.parentId);
      changes.push({
        type: 'page_moved',
        page: describe.head(page),
        parent: {
          ...(parentBefore && { before: describe.base(parentBefore) }),
          ...(parentAfter && { after: describe.head(parentAfter) }),
        },
      });
    }
  }
  for (const page of inTreeOrder(base))
    if (!head.has(page.id)) changes.push({ type: 'page_deleted', page: describe.base(page) });
  return changes;
}

/** The first `limit` changes, and how many more there are (GitBook's `limit` query, 10 by default). */
export function limitChanges(changes: RevisionSemanticChange[], limit: number): RevisionSemanticChanges {
  if (changes.length <= limit) return { changes };
  return { changes: changes.slice(0, limit), more: changes.length - limit };
}

function describer(base: TreeSnapshot, head: TreeSnapshot) {
  const basePaths = new Map<string, string>();
  const headPaths = new Map<string, string>();
  const page = (tree: TreeSnapshot, paths: Map<string, string>, p: PageSnapshot): ChangedRevisionPage => {
    const path = p.kind === 'link' ? undefined : pathOf(tree, p.id, paths);
    return { id: p.id, type: p.kind, title: p.title, ...(path !== undefined && { path }) };
  };
  return { base: (p: PageSnapshot) => page(base, basePaths, p), head: (p: PageSnapshot) => page(head, headPaths, p) };
}

const text = (before: string | null, after: string | null) => ({
  ...(before !== null && { before }),
  ...(after !== null && { after }),
});
const record = (before: Record<string, unknown> | null, after: Record<string, unknown> | null) => ({
  ...(before !== null && { before }),
  ...(after !== null && { after }),
});

async function documentChanged(
  before: PageSnapshot,
  after: PageSnapshot,
  loadMarkdown: (hash: string) => Promise<string>,
): Promise<boolean> {
  if (before.documentHash === after.documentHash) return false;
  const other = before.documentHash ?? after.documentHash;
  if (before.documentHash !== null && after.documentHash !== null) return true; // content-addressed: another hash is another text
  return other !== null && (await loadMarkdown(other)) !== '';
}

/** The attributes GitBook reports for the page's (new) type that changed; undefined when none did. */
async function changedAttributes(
  before: PageSnapshot,
  after: PageSnapshot,
  loadMarkdown: (hash: string) => Promise<string>,
): Promise<Attributes | undefined> {
  const common = {
    ...(before.title !== after.title && { title: text(before.title, after.title) }),
    ...(before.emoji !== after.emoji && { emoji: text(before.emoji, after.emoji) }),
  };
  let attributes: Attributes;
  if (after.kind === 'document') {
    attributes = {
      ...common,
      ...(before.description !== after.description && { description: text(before.description, after.description) }),
      ...(before.slug !== after.slug && { slug: text(before.slug, after.slug) }),
      ...((await documentChanged(before, after, loadMarkdown)) && {
        document: text(before.documentHash, after.documentHash),
      }),
      ...(!sameValue(before.cover, after.cover) && { cover: record(before.cover, after.cover) }),
      ...(!sameValue(before.layout, after.layout) && { layout: record(before.layout, after.layout) }),
    };
  } else if (after.kind === 'group') {
    attributes = { ...common, ...(before.slug !== after.slug && { slug: text(before.slug, after.slug) }) };
  } else {
    const url = (href: string | null) => (href === null ? null : { kind: 'url' as const, url: href });
    const [b, a] = [url(before.href), url(after.href)];
    attributes = {
      ...common,
      ...(before.href !== after.href && { target: { ...(b && { before: b }), ...(a && { after: a }) } }),
    };
  }
  return Object.keys(attributes).length ? attributes : undefined;
}
