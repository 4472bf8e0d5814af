import { entityFromRow, paginate, sql, sqlRun, type EntityManager, type PageRequest } from '@quire/kit';
import type { List } from '@quire/contracts';
import { OpenAPISpec, OpenAPISpecVersion, type IOpenAPISpec, type IOpenAPISpecVersion } from './openapi-spec.entity.ts';

/** What the processing job claims: the specification's source as it was when claimed. */
export interface OpenAPIClaim {
  id: string;
  organizationId: string;
  slug: string;
  generation: number;
  sourceUrl: string | null;
  sourceText: string | null;
  lastVersionId: string | null;
}

/** A specification to write from a source (a URL or a text) at `now`. */
interface SpecSource {
  id: string;
  organizationId: string;
  slug: string;
  sourceUrl: string | null;
  sourceText: string | null;
  now: Date;
}

/** Queries of the OpenAPI specification tables. */
export const openAPISpecRepository = {
  /** Of these document hashes (pages' or reusable contents'), those whose markdown names `slug` (a superset of those showing it). */
  async documentsNaming(em: EntityManager, hashes: readonly string[], slug: string): Promise<string[]> {
    if (!hashes.length) return [];
    const list = `{${[...new Set(hashes)].map((h) => `"${h.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
    const rows = await sql<{ hash: string }>(
      em,
      `select hash from :schema.document where hash = any(?::text[]) and strpos(markdown, ?) > 0`,
      [list, slug],
    );
    return rows.map((r) => r.hash);
  },

  async findBySlug(em: EntityManager, organizationId: string, slug: string): Promise<IOpenAPISpec | null> {
    return em.findOne(OpenAPISpec, { organizationId, slug });
  },

  async existsBySlug(em: EntityManager, organizationId: string, slug: string): Promise<boolean> {
    return (await em.count(OpenAPISpec, { organizationId, slug })) > 0;
  },

  listInOrg<T>(
    em: EntityManager,
    organizationId: string,
    req: PageRequest,
    toItem: (s: IOpenAPISpec) => T,
  ): Promise<List<T>> {
    return paginate(em, OpenAPISpec, { organizationId }, { createdAt: 'asc', id: 'asc' }, req, toItem);
  },

  /** Inserts a `pending` specification unless its slug is taken in the organization (null then). */
  async insertIfSlugFree(em: EntityManager, spec: SpecSource): Promise<IOpenAPISpec | null> {
    const rows = await sql(
      em,
      `insert into :schema.openapi_spec (id, organization_id, slug, source_url, source_text, processing_state, generation, created_at, updated_at)
       values (?, ?, ?, ?, ?, 'pending', 1, ?, ?) on conflict (organization_id, slug) do nothing returning *`,
      [spec.id, spec.organizationId, spec.slug, spec.sourceUrl, spec.sourceText, spec.now, spec.now],
    );
    return rows[0] ? entityFromRow(em, OpenAPISpec, rows[0]) : null;
  },

  /**
   * Creates the specification of a slug, or gives the existing one this source: one statement, so PUTs racing
   * on a new slug all succeed (the unique index decides which one inserts, the others update) and both source
   * columns are always written together (an ORM update writes only what differs from what it read, so two
   * PUTs of a URL and a text at once could leave neither).
   */
  async upsertBySlug(em: EntityManager, spec: SpecSource): Promise<IOpenAPISpec> {
    const rows = await sql(
      em,
      `insert into :schema.openapi_spec as s (id, organization_id, slug, source_url, source_text, processing_state, generation, created_at, updated_at)
       values (?, ?, ?, ?, ?, 'pending', 1, ?, ?)
       on conflict (organization_id, slug) do update set source_url = excluded.source_url, source_text = excluded.source_text,
         processing_state = 'pending', generation = s.generation + 1, lease_until = null, updated_at = excluded.updated_at
       returning s.*`,
      [spec.id, spec.organizationId, spec.slug, spec.sourceUrl, spec.sourceText, spec.now, spec.now],
    );
    return entityFromRow(em, OpenAPISpec, rows[0]!);
  },

  /**
   * Claims the oldest specification waiting to be processed: `pending`, or `progress` whose lease lapsed
   * (its process stopped). Sets `progress` with a lease until `leaseUntil`; skips rows another worker holds.
   */
  async claimNext(em: EntityManager, now: Date, leaseUntil: Date): Promise<OpenAPIClaim | null> {
    const rows = await sql<{
      id: string;
      organization_id: string;
      slug: string;
      generation: number;
      source_url: string | null;
      source_text: string | null;
      last_version_id: string | null;
    }>(
      em,
      `update :schema.openapi_spec set processing_state = 'progress', lease_until = ?
       where id = (
         select id from :schema.openapi_spec
         where processing_state = 'pending' or (processing_state = 'progress' and (lease_until is null or lease_until < ?))
         order by updated_at, id limit 1 for update skip locked)
       returning id, organization_id, slug, generation, source_url, source_text, last_version_id`,
      [leaseUntil, now],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          organizationId: r.organization_id,
          slug: r.slug,
          generation: r.generation,
          sourceUrl: r.source_url,
          sourceText: r.source_text,
          lastVersionId: r.last_version_id,
        }
      : null;
  },

  /** Extends the lease of a claim still current; false when the specification changed or is gone. */
  async renewLease(em: EntityManager, claim: OpenAPIClaim, leaseUntil: Date): Promise<boolean> {
    return (
      (await sqlRun(
        em,
        `update :schema.openapi_spec set lease_until = ? where id = ? and generation = ? and processing_state = 'progress'`,
        [leaseUntil, claim.id, claim.generation],
      )) > 0
    );
  },

  /** The specification of a claim, locked, when its source has not changed since (else null: the result is stale). */
  async lockIfCurrent(em: EntityManager, claim: OpenAPIClaim): Promise<IOpenAPISpec | null> {
    const rows = await sql(em, `select * from :schema.openapi_spec where id = ? and generation = ? for update`, [
      claim.id,
      claim.generation,
    ]);
    return rows[0] ? entityFromRow(em, OpenAPISpec, rows[0]) : null;
  },

  async findVersion(em: EntityManager, specId: string, id: string): Promise<IOpenAPISpecVersion | null> {
    return em.findOne(OpenAPISpecVersion, { id, specId });
  },

  async findVersionWithContent(em: EntityManager, specId: string, id: string): Promise<IOpenAPISpecVersion | null> {
    return em.findOne(OpenAPISpecVersion, { id, specId }, { populate: ['filesystem'] });
  },

  listVersions<T>(
    em: EntityManager,
    specId: string,
    req: PageRequest,
    toItem: (v: IOpenAPISpecVersion) => T,
  ): Promise<List<T>> {
    return paginate(em, OpenAPISpecVersion, { specId }, { createdAt: 'desc', id: 'desc' }, req, toItem);
  },
};
