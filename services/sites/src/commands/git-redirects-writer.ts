import { SiteRedirectSourcePathSchema, type SiteRedirectDestination } from '@quire/contracts';
import { newId, type EntityManager } from '@quire/kit';
import { siteSpaceSegments } from '../modules/redirects/redirect-target.ts';
import { MAX_REDIRECTS_PER_SITE, redirectRepository } from '../modules/redirects/redirect.repository.ts';
import { SiteTree } from '../modules/structure/site-tree.ts';
import { SiteSpace } from '../modules/structure/structure.entity.ts';

/** A redirect of a space's `.gitbook.yaml`: a path relative to the space's URL → a page of the space. */
export interface GitRedirect {
  source: string;
  page: string;
}

/** Git-made redirects are permanent (308): the page moved for good. */
const PERMANENT = true;

/** A path segment as the published handler compares it: percent-encoded once (an encoded one is kept as is). */
const encodeSegment = (segment: string) => {
  try {
    return encodeURIComponent(decodeURIComponent(segment));
  } catch {
    return encodeURIComponent(segment);
  }
};

/**
 * The site's redirects for a space's `.gitbook.yaml` redirects, by normalised source: each site space showing
 * the space (and shown itself) gets each redirect under its URL (`/<section>/<site space>/<source>`, the default
 * section's and site space's path left out), leading to the page in that site space. A source that is not a valid
 * site redirect source is left out; the first site space to claim a source keeps it.
 */
export function gitRedirectsOnSite(
  tree: SiteTree,
  spaceId: string,
  redirects: readonly GitRedirect[],
): Map<string, SiteRedirectDestination> {
  const out = new Map<string, SiteRedirectDestination>();
  for (const t of tree.spaces) {
    if (t.entity.spaceId !== spaceId) continue;
    const segments = siteSpaceSegments(tree, t.entity.id);
    if (!segments) continue;
    const prefix = segments.flatMap((s) => s.split('/')).map(encodeSegment);
    for (const r of redirects) {
      const parsed = SiteRedirectSourcePathSchema.safeParse(
        `/${[...prefix, ...r.source.split('/').map(encodeSegment)].join('/')}`,
      );
      if (!parsed.success || out.has(parsed.data)) continue;
      out.set(parsed.data, { kind: 'site-page', siteSpaceId: t.entity.id, pageId: r.page });
    }
  }
  return out;
}

/**
 * A Git import gave a space's redirects (`space.git-redirects-updated`): on every site showing the space, its
 * git-made live redirects become exactly these (the earlier ones replaced), as long as the site has room (at most
 * `MAX_REDIRECTS_PER_SITE`). Redirects users made (or changed) are never touched; a source one of them holds stays
 * theirs. The same redirects again change nothing. Returns the sites changed.
 */
export async function gitRedirectsWriter(
  em: EntityManager,
  props: { spaceId: string; redirects: readonly GitRedirect[]; now?: Date },
): Promise<string[]> {
  const now = props.now ?? new Date();
  const siteIds = [...new Set((await em.find(SiteSpace, { spaceId: props.spaceId })).map((s) => s.siteId))].sort();
  const changed: string[] = [];
  for (const siteId of siteIds) {
    const wanted = gitRedirectsOnSite(await SiteTree.load(em, siteId), props.spaceId, props.redirects);
    const others = await redirectRepository.countOthersThanGit(em, siteId, props.spaceId);
    const rows = [...wanted]
      .slice(0, Math.max(0, MAX_REDIRECTS_PER_SITE - others))
      .map(([source, destination]) => ({ id: newId(), source, permanent: PERMANENT, destination }));
    if ((await redirectRepository.replaceGitRedirects(em, siteId, props.spaceId, rows, now)) > 0) changed.push(siteId);
  }
  return changed;
}
