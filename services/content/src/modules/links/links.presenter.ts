import type { BacklinkItem, ContentReference, LinkItem, LinkStatus, LinksList, List } from '@quire/contracts';
import { pageOfList } from '@quire/kit';
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
      return target.anchor !== undefined
        ? { kind: 'anchor', ...located(rev), page: target.page, anchor: target.anchor }
        : { kind: 'page', ...located(rev), page: target.page };
    case 'file':
      return {
        kind: 'file',
        ...located(rev),
        ...(target.space !== undefined ? { space: target.space } : {}),
        file: target.file,
      };
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

/** The links listing: the page asked for among the links of `status` (all when absent), with stats over every link. */
export function presentLinks(
  rev: Revision,
  links: readonly ResolvedLink[],
  input: PageInput & { status?: LinkStatus | undefined },
  brokenInChangeRequests: number,
): LinksList {
  const matching = input.status === undefined ? links : links.filter((l) => l.status === input.status);
  // The links of a revision in reading order: a link's position is its key (its target may be a long URL).
  const { count, items, next } = pageOfList(matching, (_, i) => [i], input);
  return {
    count,
    items: items.map((l) => presentLink(rev, l)),
    ...(next ? { next } : {}),
    stats: {
      total: links.length,
      broken: { total: links.filter((l) => l.status === 'broken').length, changeRequest: brokenInChangeRequests },
    },
  };
}

export function presentBacklinks(rev: Revision, pageIds: readonly string[], input: PageInput): List<BacklinkItem> {
  const { count, items, next } = pageOfList(pageIds, (id, i) => [i, id], input);
  return { count, items: items.map((id) => presentPageReference(rev, id)), ...(next ? { next } : {}) };
}
