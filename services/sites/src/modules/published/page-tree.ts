import type { RevisionPage } from '@quire/contracts';
import { conditionHolds, type ConditionContext, type ConditionLogger } from '@quire/kit';
import { coverOf, type PageCover } from '@quire/document/render';

/** A page of a site space's live revision as the published site uses it. */
export interface SitePage {
  id: string;
  type: 'document' | 'group' | 'link';
  title: string;
  /** The page's path in the revision (`guides/setup`); `` for links. */
  path: string;
  emoji?: string | undefined;
  /** The page's Font Awesome icon name (`book-open`), drawn beside its title when it names one. */
  icon?: string | undefined;
  description?: string | undefined;
  href?: string | undefined;
  updatedAt?: string | undefined;
  noIndex: boolean;
  noRobotsIndex: boolean;
  condition?: string | undefined;
  /** The page's cover (GitBook's `{ref, yPos}`), shown at the top of the page. */
  cover?: PageCover | undefined;
  children: SitePage[];
  parent: SitePage | null;
}

/** The pages a visitor may reach, with the lookups the renderer needs. */
export interface PageTree {
  roots: SitePage[];
  byId: Map<string, SitePage>;
  byPath: Map<string, SitePage>;
  /** Document pages in reading order: the prev/next chain, sitemap, llms.txt. */
  reading: SitePage[];
}

type RawPage = RevisionPage | Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function toSitePage(raw: RawPage, parent: SitePage | null): SitePage {
  const r = raw as Record<string, unknown>;
  const type = r.type === 'group' || r.type === 'link' ? r.type : 'document';
  const page: SitePage = {
    id: String(r.id),
    type,
    title: typeof r.title === 'string' ? r.title : '',
    path: str(r.path) ?? '',
    emoji: str(r.emoji),
    icon: str(r.icon),
    description: str(r.description),
    href: str(r.href) ?? str((r.target as { url?: unknown } | undefined)?.url),
    updatedAt: str(r.updatedAt),
    noIndex: r.noIndex === true,
    noRobotsIndex: r.noRobotsIndex === true,
    condition: str(r.condition),
    cover: coverOf(r.cover),
    children: [],
    parent,
  };
  return page;
}

/**
 * The tree of a revision's pages minus what this visitor may not see: a hidden page (`hidden: true`), and a page
 * whose condition does not hold (or does not parse), are gone with their sub-pages, from every URL and list —
 * navigation, links, search, the sitemap, the llms files and the `.md` pages.
 */
export function buildPageTree(pages: readonly RawPage[], visitor: ConditionContext, log?: ConditionLogger): PageTree {
  const byId = new Map<string, SitePage>();
  const byPath = new Map<string, SitePage>();
  const reading: SitePage[] = [];
  const walk = (list: readonly RawPage[], parent: SitePage | null, depth: number): SitePage[] => {
    const out: SitePage[] = [];
    for (const raw of list) {
      if ((raw as { hidden?: unknown }).hidden === true) continue;
      const page = toSitePage(raw, parent);
      if (!conditionHolds(page.condition, visitor, log)) continue;
      byId.set(page.id, page);
      if (page.type !== 'link' && page.path) byPath.set(page.path, page);
      if (page.type === 'document') reading.push(page);
      const children = (raw as { pages?: unknown }).pages;
      if (Array.isArray(children) && depth < 64) page.children = walk(children as RawPage[], page, depth + 1);
      out.push(page);
    }
    return out;
  };
  const roots = walk(pages, null, 0);
  return { roots, byId, byPath, reading };
}

/** The page at a path: a document, or the first document under a group (null when none). */
export function pageAt(tree: PageTree, path: string): SitePage | null {
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (clean === '') return tree.reading[0] ?? firstDocument(tree.roots);
  const page = tree.byPath.get(clean);
  if (!page) return null;
  return page.type === 'document' ? page : firstDocument(page.children);
}

function firstDocument(pages: SitePage[]): SitePage | null {
  for (const p of pages) {
    if (p.type === 'document') return p;
    const inner = p.type === 'group' ? firstDocument(p.children) : null;
    if (inner) return inner;
  }
  return null;
}

/** The page's ancestors, from the top level down. */
export function ancestorsOf(page: SitePage): SitePage[] {
  const out: SitePage[] = [];
  for (let p = page.parent; p; p = p.parent) out.unshift(p);
  return out;
}

/** The first page of the space is served at the space's root: its path is empty there. */
export function urlPathOf(tree: PageTree, page: SitePage): string {
  return tree.reading[0]?.id === page.id ? '' : page.path;
}
