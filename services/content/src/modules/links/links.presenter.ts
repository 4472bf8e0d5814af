import type { BacklinkItem, ContentReference, LinkItem, LinkStatus, LinksList, List } from '@quire/contracts';
import { invalid } from '@quire/kit';
import type { LoadedRevision } from '../content/content.loader.ts';
import type { ResolvedLink } from './links.loader.ts';

type Revision = Pick<LoadedRevision, 'space' | 'tree'>;

const located = ({ space, tree }: Revision) => ({
  organization: space.organizationId,
  space: space.id,
  versionContext: { type: 'revision' as const, revision: tree.revision.id },
});

export function presentPageReference(rev: Revision, pageId: string): BacklinkItem {
  return { kind: 'page', ...located(rev), page: pageId };
}

function presentTarget(rev: Revision, target: ResolvedLink['target']): ContentReference {
  switch (target.kind) {
    case 'page':
      return target.anchor !== undefined ? { kind: 'anchor', ...located(rev), page: target.page, anchor: target.anchor } : { kind: 'page', ...located(rev), page: target.page };
    case 'file':
      return { kind: 'file', ...located(rev), ...(target.space !== undefined ? { space: target.space } : {}), file: target.file };
    case 'url':
      return { kind: 'url', url: target.url };
  }
}

export function presentLink(rev: Revision, link: ResolvedLink): LinkItem {
  return {
    status: link.status,
    relation: 'reference',
    targetReference: presentTarget(rev, link.target),
    locationReferences: link.pages.map((page) => presentPageReference(rev, page)),
  };
}

interface PageInput {
  page?: string | undefined;
  limit?: number | undefined;
}

/** One page of an immutable ordered list: keyset on the item's key, the cursor is the last key (base64url); 400 on a cursor not of the list. */
export function pageOf<T>(all: readonly T[], keyOf: (item: T) => string, input: PageInput): { count: number; items: T[]; next?: { page: string } } {
  let start = 0;
  if (input.page !== undefined) {
    const key = Buffer.from(input.page, 'base64url').toString('utf8');
    const after = all.findIndex((item) => keyOf(item) === key);
    if (after < 0) throw invalid('Invalid `page`: not a cursor of this list');
    start = after + 1;
  }
  const limit = input.limit ?? 50;
  const items = all.slice(start, start + limit);
  const more = start + limit < all.length && items.length > 0;
  return { count: all.length, items, ...(more ? { next: { page: Buffer.from(keyOf(items.at(-1)!)).toString('base64url') } } : {}) };
}

/** The links listing: the page asked for among the links of `status` (all when absent), with stats over every link. */
export function presentLinks(rev: Revision, links: readonly ResolvedLink[], input: PageInput & { status?: LinkStatus | undefined }, brokenInChangeRequests: number): LinksList {
  const matching = input.status === undefined ? links : links.filter((l) => l.status === input.status);
  const { count, items, next } = pageOf(matching, (l) => l.key, input);
  return {
    count,
    items: items.map((l) => presentLink(rev, l)),
    ...(next ? { next } : {}),
    stats: { total: links.length, broken: { total: links.filter((l) => l.status === 'broken').length, changeRequest: brokenInChangeRequests } },
  };
}

export function presentBacklinks(rev: Revision, pageIds: readonly string[], input: PageInput): List<BacklinkItem> {
  const { count, items, next } = pageOf(pageIds, (id) => id, input);
  return { count, items: items.map((id) => presentPageReference(rev, id)), ...(next ? { next } : {}) };
}
