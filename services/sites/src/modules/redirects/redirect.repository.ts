import { normalizeRedirectSource, type SiteRedirectDestination } from '@quire/contracts';
import { entityFromRow, sql, type EntityManager } from '@quire/kit';
import { SiteTree } from '../structure/site-tree.ts';
import { destinationTarget, withCapturedRest, type PagePathOf } from './redirect-target.ts';
import { SiteRedirect, type ISiteRedirect } from './redirect.entity.ts';

export type { PagePathOf } from './redirect-target.ts';

/** A live redirect matching a requested path, with the rest of the path its wildcard matched. */
export interface MatchedRedirect {
  redirect: ISiteRedirect;
  rest: string;
}

/** A full row of the site_redirect table, as the commands write it. */
export interface RedirectRow {
  id: string;
  siteId: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: SiteRedirectDestination;
  createdAt: Date;
  updatedAt: Date;
}

/** A unique-key violation, as PostgreSQL (23505) or MikroORM reports it. */
const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  ((err as { code?: string }).code === '23505' ||
    (err as { name?: string }).name === 'UniqueConstraintViolationException');

const values = (r: RedirectRow) => [
  r.id,
  r.siteId,
  r.source,
  r.draft,
  r.captureWildcard,
  r.permanent,
  JSON.stringify(r.destination),
  r.createdAt,
  r.updatedAt,
];
const INSERT = `insert into :schema.site_redirect as r
  (id, site_id, source, draft, capture_wildcard, permanent, destination, created_at, updated_at)
  values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)`;

/** At most this many redirects (live and draft) on one site. */
export const MAX_REDIRECTS_PER_SITE = 10_000;

/** Queries of the site_redirect table. */
export const redirectRepository = {
  /** The filter of a site's redirects list: live or draft, by text in the source. */
  listWhere(siteId: string, q: { draft: boolean; search?: string | undefined }) {
    return {
      siteId,
      draft: q.draft,
      ...(q.search ? { source: { $ilike: `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } } : {}),
    };
  },

  async findIn(em: EntityManager, siteId: string, id: string): Promise<ISiteRedirect | null> {
    return em.findOne(SiteRedirect, { id, siteId });
  },

  async count(em: EntityManager, siteId: string): Promise<number> {
    return em.count(SiteRedirect, { siteId });
  },

  /** The redirects of a site other than the live ones `spaceId`'s `.gitbook.yaml` made. */
  async countOthersThanGit(em: EntityManager, siteId: string, spaceId: string): Promise<number> {
    const [row] = await sql<{ n: number }>(
      em,
      `select count(*)::int as n from :schema.site_redirect
       where site_id = ? and (draft or git_space_id is null or git_space_id <> ?)`,
      [siteId, spaceId],
    );
    return row?.n ?? 0;
  },

  async findBySource(em: EntityManager, siteId: string, source: string, draft: boolean): Promise<ISiteRedirect | null> {
    return em.findOne(SiteRedirect, { siteId, source, draft });
  },

  /**
   * The live redirect for `path` (normalised): the one whose source is the path, else the longest wildcard source
   * (`/old/*`, `/old*`) the path starts with.
   */
  async matchLive(em: EntityManager, siteId: string, path: string): Promise<MatchedRedirect | null> {
    const rows = await sql(
      em,
      `select * from :schema.site_redirect
       where site_id = ? and not draft
         and (source = ? or (right(source, 1) = '*' and starts_with(?, left(source, -1))))
       order by (source = ?) desc, length(source) desc
       limit 1`,
      [siteId, path, path, path],
    );
    if (!rows[0]) return null;
    const redirect = entityFromRow(em, SiteRedirect, rows[0]);
    const rest =
      redirect.source === path || !redirect.source.endsWith('*') ? '' : path.slice(redirect.source.length - 1);
    return { redirect, rest };
  },

  /**
   * Inserts the redirect unless the site has one for its source and draft state (then null): decided by the
   * unique key.
   */
  async insertUnlessTaken(em: EntityManager, row: RedirectRow): Promise<ISiteRedirect | null> {
    const rows = await sql(em, `${INSERT} on conflict (site_id, draft, source) do nothing returning *`, values(row));
    return rows[0] ? entityFromRow(em, SiteRedirect, rows[0]) : null;
  },

  /**
   * Inserts the redirect, or updates the one of its source and draft state (its id and creation date kept;
   * `permanent` kept when not given). `created` says which.
   */
  async upsert(
    em: EntityManager,
    row: Omit<RedirectRow, 'permanent'> & { permanent?: boolean | undefined },
  ): Promise<{ redirect: ISiteRedirect; created: boolean }> {
    const rows = await sql<Record<string, unknown> & { created: boolean }>(
      em,
      `${INSERT}
       on conflict (site_id, draft, source) do update
         set capture_wildcard = excluded.capture_wildcard,
             permanent = case when ? then excluded.permanent else r.permanent end,
             destination = excluded.destination,
             updated_at = excluded.updated_at,
             git_space_id = null
       returning r.*, (xmax = 0) as created`,
      [...values({ ...row, permanent: row.permanent ?? false }), row.permanent !== undefined],
    );
    const { created, ...stored } = rows[0]!;
    return { redirect: entityFromRow(em, SiteRedirect, stored), created };
  },

  /**
   * Rewrites a redirect unless another redirect of the site holds its (new) source and draft state (then null):
   * checked in the statement, and by the unique key when two changes race (its violation is that null too; the
   * transaction, aborted by it, is rolled back with the conflict the caller throws).
   */
  async updateUnlessTaken(em: EntityManager, row: Omit<RedirectRow, 'createdAt'>): Promise<ISiteRedirect | null> {
    const rows = await sql(
      em,
      `update :schema.site_redirect
       set source = ?, draft = ?, capture_wildcard = ?, permanent = ?, destination = ?::jsonb, updated_at = ?,
         git_space_id = null
       where id = ? and site_id = ?
         and not exists (select 1 from :schema.site_redirect o
                         where o.site_id = ? and o.draft = ? and o.source = ? and o.id <> ?)
       returning *`,
      [
        row.source,
        row.draft,
        row.captureWildcard,
        row.permanent,
        JSON.stringify(row.destination),
        row.updatedAt,
        row.id,
        row.siteId,
        row.siteId,
        row.draft,
        row.source,
        row.id,
      ],
    ).catch((err: unknown) => {
      if (isUniqueViolation(err)) return [];
      throw err;
    });
    return rows[0] ? entityFromRow(em, SiteRedirect, rows[0]) : null;
  },

  /**
   * Makes the live redirects of `spaceId`'s `.gitbook.yaml` on a site exactly `rows` (Git Sync): its other git-made
   * redirects are deleted, each row inserted or, when the space made its source before, updated if it differs. A
   * source a user's redirect (or another space's) holds is left to it. Returns how many rows changed.
   */
  async replaceGitRedirects(
    em: EntityManager,
    siteId: string,
    spaceId: string,
    rows: readonly Pick<RedirectRow, 'id' | 'source' | 'permanent' | 'destination'>[],
    now: Date,
  ): Promise<number> {
    const sources = `{${rows.map((r) => `"${r.source.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
    const deleted = await sql(
      em,
      `delete from :schema.site_redirect where site_id = ? and git_space_id = ? and not draft
         and not (source = any(?::text[])) returning id`,
      [siteId, spaceId, sources],
    );
    if (!rows.length) return deleted.length;
    const written = await sql(
      em,
      `insert into :schema.site_redirect as r
         (id, site_id, source, draft, capture_wildcard, permanent, destination, created_at, updated_at, git_space_id)
       select x.id, ?::text, x.source, false, false, x.permanent, x.destination,
         ?::timestamptz, ?::timestamptz, ?::text
       from jsonb_to_recordset(?::jsonb) as x(id text, source text, permanent boolean, destination jsonb)
       on conflict (site_id, draft, source) do update
         set permanent = excluded.permanent, destination = excluded.destination, capture_wildcard = false,
             updated_at = excluded.updated_at
         where r.git_space_id = excluded.git_space_id
           and (r.permanent, r.destination, r.capture_wildcard) is distinct from (excluded.permanent, excluded.destination, false)
       returning r.id`,
      [siteId, now, now, spaceId, JSON.stringify(rows)],
    );
    return deleted.length + written.length;
  },

  async deleteById(em: EntityManager, siteId: string, id: string): Promise<boolean> {
    return (
      (await sql(em, `delete from :schema.site_redirect where site_id = ? and id = ? returning id`, [siteId, id]))
        .length > 0
    );
  },

  /** Deletes the live or draft redirect of a source; the row deleted, or null. */
  async deleteBySource(
    em: EntityManager,
    siteId: string,
    source: string,
    draft: boolean,
  ): Promise<ISiteRedirect | null> {
    const rows = await sql(
      em,
      `delete from :schema.site_redirect where site_id = ? and draft = ? and source = ? returning *`,
      [siteId, draft, source],
    );
    return rows[0] ? entityFromRow(em, SiteRedirect, rows[0]) : null;
  },
};

/** What a visitor asking for a redirected path is sent to. */
export interface SiteRedirectTarget {
  /**
   * A path relative to the site's root, percent-encoded (`/`, `/guides/v2/install`): prefix it with the base the
   * site is served under (`/sites/<basename>`, a custom hostname, a proxy). Or, for an external destination, an
   * absolute `http(s)` URL to send the visitor to as is. `captureWildcard` redirects carry the rest of the path.
   */
  target: string;
  /** Permanent: answer 308 (301 for GET-only clients); otherwise a temporary 307 (302). */
  permanent: boolean;
}

/**
 * The redirect of a site for a source path (`/old/page`, normalised like stored sources: leading `/`, no
 * trailing `/`, no query), following live redirects only (drafts never apply): exact source first, else the
 * longest wildcard source. Null when no redirect matches or its destination no longer exists (a deleted
 * section, site space or page, a space in the trash). `pagePath` gives the live path of a page of a space
 * (needed for page destinations only; e.g. from the content service's `getPageById`).
 */
export async function findSiteRedirect(
  em: EntityManager,
  siteId: string,
  source: string,
  pagePath: PagePathOf,
): Promise<SiteRedirectTarget | null> {
  const match = await redirectRepository.matchLive(em, siteId, normalizeRedirectSource(source));
  if (!match) return null;
  const target = await destinationTarget(await SiteTree.load(em, siteId), match.redirect.destination, pagePath);
  if (target === null) return null;
  return {
    target: match.redirect.captureWildcard ? withCapturedRest(target, match.rest) : target,
    permanent: match.redirect.permanent,
  };
}
