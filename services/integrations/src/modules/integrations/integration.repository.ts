import { DEFAULT_PAGE_SIZE, type List } from '@quire/contracts';
import { decodeCursor, encodeCursor, entityFromRow, marks, sql, sqlRun, type EntityManager } from '@quire/kit';
import { z } from 'zod';
import { Integration, type IIntegration } from './integration.entity.ts';

export interface IntegrationFilters {
  search?: string | undefined;
  category?: string | undefined;
  blockDomain?: string | undefined;
  blocks?: boolean | undefined;
  contentSources?: boolean | undefined;
  owner?: string | undefined;
  scope?: string | undefined;
  target?: string | undefined;
}

/** `%`, `_` and `\` taken literally in a `like` pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Which integrations a list holds: those the caller may list (public ones, and every one of the organizations
 * `memberOf`), or those installed in an organization (`installedIn`), for one of its spaces or sites when `target`
 * is given (an installation for all of them, or one installed on that one).
 */
export type IntegrationListScope =
  | { memberOf: string[] }
  | { installedIn: string; target?: { kind: 'space' | 'site'; id: string } | undefined };

/** The clause (and its parameters) of a list's scope. */
function scopeClause(scope: IntegrationListScope): { text: string; params: unknown[] } {
  if ('memberOf' in scope) {
    const { memberOf } = scope;
    return memberOf.length
      ? { text: `(visibility = 'public' or owner_id in (${marks(memberOf.length)}))`, params: memberOf }
      : { text: `visibility = 'public'`, params: [] };
  }
  const installed = `select i.integration_name from :schema.integration_installation i where i.organization_id = ?`;
  const { target } = scope;
  if (target === undefined) return { text: `name in (${installed})`, params: [scope.installedIn] };
  const selection = target.kind === 'space' ? 'i.space_selection' : 'i.site_selection';
  return {
    text: `name in (${installed} and (${selection} = 'all' or exists (select 1 from :schema.integration_content_installation c where c.installation_id = i.id and c.target_kind = ? and c.target_id = ?)))`,
    params: [scope.installedIn, target.kind, target.id],
  };
}

/** The `where` of a list: its scope, then the filters. */
function listWhere(scope: IntegrationListScope, f: IntegrationFilters): { text: string; params: unknown[] } {
  const scoped = scopeClause(scope);
  const clauses: string[] = [scoped.text];
  const params: unknown[] = [...scoped.params];
  if (f.search) {
    clauses.push(`(name ilike ? or title ilike ?)`);
    const pattern = `%${likeEscape(f.search)}%`;
    params.push(pattern, pattern);
  }
  if (f.category) clauses.push(`categories @> jsonb_build_array(?::text)`), params.push(f.category);
  if (f.scope) clauses.push(`scopes @> jsonb_build_array(?::text)`), params.push(f.scope);
  if (f.blockDomain)
    clauses.push(`block_domains @> jsonb_build_array(?::text)`), params.push(f.blockDomain.toLowerCase());
  if (f.blocks !== undefined)
    clauses.push(f.blocks ? `jsonb_array_length(blocks) > 0` : `jsonb_array_length(blocks) = 0`);
  if (f.contentSources !== undefined)
    clauses.push(
      f.contentSources ? `jsonb_array_length(content_sources) > 0` : `jsonb_array_length(content_sources) = 0`,
    );
  if (f.owner) clauses.push(`owner_id = ?`), params.push(f.owner);
  // An integration for `all` targets can be installed at every target.
  if (f.target)
    clauses.push(f.target === 'all' ? `target = 'all'` : `target in ('all', ?)`),
      f.target !== 'all' && params.push(f.target);
  return { text: clauses.join(' and '), params };
}

/** The key of an integration in the list: its name. */
const NAME_KEY = z.tuple([z.string().regex(/^[a-zA-Z0-9-_.]+$/)]);

/** Queries of the integration table (and its versions). */
export const integrationRepository = {
  async findByName(em: EntityManager, name: string): Promise<IIntegration | null> {
    return em.findOne(Integration, { name });
  },

  /** A page of the integrations of `scope`, by name (keyset: `page` is the last name seen); `count` is the total of matches. */
  async list(
    em: EntityManager,
    scope: IntegrationListScope,
    filters: IntegrationFilters,
    req: { page?: string | undefined; limit?: number | undefined },
  ): Promise<List<IIntegration>> {
    const limit = req.limit ?? DEFAULT_PAGE_SIZE;
    const after = req.page !== undefined ? decodeCursor(req.page, NAME_KEY)[0] : undefined;
    const where = listWhere(scope, filters);
    const [{ count } = { count: 0 }] = await sql<{ count: number }>(
      em,
      `select count(*)::int as count from :schema.integration where ${where.text}`,
      where.params,
    );
    if (limit === 0) return { count, items: [] };
    const rows = await sql(
      em,
      `select * from :schema.integration where ${where.text} ${after !== undefined ? 'and name collate "C" > ?' : ''} order by name collate "C" limit ?`,
      [...where.params, ...(after !== undefined ? [after] : []), limit + 1],
    );
    const items = rows.slice(0, limit).map((r) => entityFromRow(em, Integration, r));
    const list: List<IIntegration> = { count, items };
    if (rows.length > limit) list.next = { page: encodeCursor([items.at(-1)!.name]) };
    return list;
  },

  /** The integrations an organization owns. */
  async ownedBy(em: EntityManager, organizationId: string): Promise<IIntegration[]> {
    return em.find(Integration, { ownerId: organizationId });
  },

  /** Names of the integrations whose secrets are sealed with another key than `keyId` (to re-encrypt after a rotation). */
  async sealedWithOtherKey(em: EntityManager, keyId: string): Promise<string[]> {
    const rows = await sql<{ name: string }>(
      em,
      `select name from :schema.integration where secrets is not null and split_part(secrets, '.', 2) <> ? order by name`,
      [keyId],
    );
    return rows.map((r) => r.name);
  },

  /** The sealed secrets of an integration, its row locked until the transaction ends. */
  async lockSecrets(em: EntityManager, name: string): Promise<string | null> {
    const rows = await sql<{ secrets: string | null }>(
      em,
      `select secrets from :schema.integration where name = ? for update`,
      [name],
    );
    return rows[0]?.secrets ?? null;
  },

  async updateSecrets(em: EntityManager, name: string, secrets: string): Promise<void> {
    await sqlRun(em, `update :schema.integration set secrets = ? where name = ?`, [secrets, name]);
  },
};
