// How the benches put content into a space, the two ways side by side:
//   - `api`: as users do, through the HTTP API — one change request written in `insert_page` batches of 50 (the
//     contract's limit), merged; then a few rounds of small change requests (10 pages edited each) merged on top.
//   - `seeded`: straight into the content schema, as the engine writes a snapshot revision (one `revision` row whose
//     lineage is itself, one `revision_page` row per page, content-addressed `document` rows), made the live revision.
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { NO_RATE_LIMITS } from './env.ts';

export type BuildMode = 'api' | 'seeded';

/** `BENCH_MODE`: `api`, `seeded`, or both (the default, `api,seeded`), in that order. */
export function buildModes(): BuildMode[] {
  const raw = (process.env.BENCH_MODE ?? 'api,seeded')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const m of raw)
    if (m !== 'api' && m !== 'seeded')
      throw new Error(`BENCH_MODE: api, seeded or both (api,seeded), not ${JSON.stringify(m)}`);
  return [...new Set(raw)] as BuildMode[];
}

export interface PageContent {
  title: string;
  markdown: string;
}

/**
 * What a platform a space is built on through the API is started with: no rate limits (the bench is one client making
 * thousands of calls), and a parse budget that a loaded machine does not exceed on a batch of 50 pages (the default,
 * 1.5 s, is CPU time spent while any parse of the write runs).
 */
export const API_BUILD_ENV = {
  ...NO_RATE_LIMITS,
  QUIRE_PARSE_TIMEOUT_MS: '10000',
};

type Call = (method: string, path: string, token: string, body?: unknown) => Promise<any>;

/** How long each content write and each merge of a build took, in order (ms). */
export interface BuildLog {
  batchMs: number[];
  mergeMs: number[];
}

const TOPS = 100;
const BATCH = 50;

/**
 * Writes pages `first .. first + count - 1` of `content` into a space through the API: `TOPS` top-level pages, the rest
 * under them in turn (as the seeded layout), in one change request of `insert_page` batches of 50, merged; then
 * `rounds` change requests each editing 10 pages (their text, re-written with a sentence added), merged.
 */
export async function buildThroughApi(
  call: Call,
  token: string,
  spaceId: string,
  content: (i: number) => PageContent,
  first: number,
  count: number,
  rounds = 3,
  log?: BuildLog,
): Promise<void> {
  const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, token, {});
  const url = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`;
  const insert = (n: number, into?: string) => {
    const { title, markdown } = content(first + n);
    return { operation: 'insert_page', title, ...(into ? { into } : {}), document: { markdown } };
  };
  const timed = async (body: unknown) => {
    const t0 = performance.now();
    await call('POST', url, token, body);
    log?.batchMs.push(performance.now() - t0);
  };
  const tops = Math.min(TOPS, count);
  for (let n = 0; n < tops; n += BATCH)
    await timed({ changes: Array.from({ length: Math.min(BATCH, tops - n) }, (_, k) => insert(n + k)) });
  const topIds = (
    (await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`, token)).pages as { id: string }[]
  ).map((p) => p.id);
  for (let n = tops; n < count; n += BATCH)
    await timed({
      changes: Array.from({ length: Math.min(BATCH, count - n) }, (_, k) =>
        insert(n + k, topIds[(n + k) % topIds.length]),
      ),
    });
  const merge = async (id: string) => {
    const t0 = performance.now();
    const res = await call('POST', `/v1/spaces/${spaceId}/change-requests/${id}/merge`, token);
    log?.mergeMs.push(performance.now() - t0);
    if (res.result !== 'merge') throw new Error(`merge of ${id}: ${res.result}`);
  };
  await merge(cr.id);
  if (rounds <= 0) return;
  const leaves = (
    (await call('GET', `/v1/spaces/${spaceId}/content/pages`, token)).pages as { id: string; pages: { id: string }[] }[]
  ).flatMap((p) => [p, ...p.pages]);
  for (let r = 0; r < rounds; r++) {
    const small = await call('POST', `/v1/spaces/${spaceId}/change-requests`, token, {});
    const changes = Array.from({ length: Math.min(10, leaves.length) }, (_, k) => {
      const at = ((r * 10 + k) * 7) % leaves.length;
      const { markdown } = content(first + at);
      return {
        operation: 'update_page',
        page: leaves[at]!.id,
        document: { markdown: `${markdown}\nEdited in round ${r + 1}.\n` },
      };
    });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${small.id}/content`, token, { changes });
    await merge(small.id);
  }
}

const newId = () => randomBytes(15).toString('base64url').replace(/[-_]/g, 'x').slice(0, 20);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * A snapshot revision of pages `first .. first + count - 1` (`TOPS` top-level pages, the rest under them) written as the
 * content engine writes one (services/content revision-writer: `lineage` = itself; revision.repository insertPages
 * columns; document.repository: documents by SHA-256 of their markdown), made the space's live revision.
 */
export async function seedRevision(
  db: pg.Client,
  spaceId: string,
  content: (i: number) => PageContent,
  first: number,
  count: number,
): Promise<void> {
  const revision = newId();
  const now = new Date();
  await db.query('begin');
  await db.query(
    `insert into content.revision (id, space_id, parents, type, created_at, created_by, change_request_id, lineage, conflicts) values ($1, $2, '[]', 'edits', $3, null, null, $4, '[]')`,
    [revision, spaceId, now, JSON.stringify([revision])],
  );
  const tops: string[] = [];
  for (let start = 0; start < count; start += 2_000) {
    const rows = Array.from({ length: Math.min(2_000, count - start) }, (_, k) => {
      const n = start + k;
      const { title, markdown } = content(first + n);
      const id = newId();
      const top = n < TOPS;
      if (top) tops.push(id);
      return {
        id,
        parent: top ? null : tops[n % tops.length]!,
        ord: `a${String(n).padStart(6, '0')}`,
        title,
        slug: `page-${first + n}`,
        markdown,
        hash: sha256(markdown),
      };
    });
    await db.query(
      `insert into content.document (hash, markdown, created_at) select * from unnest($1::text[], $2::text[], $3::timestamptz[]) on conflict (hash) do nothing`,
      [rows.map((r) => r.hash), rows.map((r) => r.markdown), rows.map(() => now)],
    );
    await db.query(
      `insert into content.revision_page (revision_id, page_id, deleted, parent_id, ord, kind, title, slug, hidden, no_index, no_robots_index, document_hash, created_at, updated_at)
       select $1, u.id, false, u.parent, u.ord, 'document', u.title, u.slug, false, false, false, u.hash, $2, $2 from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) as u(id, parent, ord, title, slug, hash)`,
      [
        revision,
        now,
        rows.map((r) => r.id),
        rows.map((r) => r.parent),
        rows.map((r) => r.ord),
        rows.map((r) => r.title),
        rows.map((r) => r.slug),
        rows.map((r) => r.hash),
      ],
    );
  }
  await db.query(`update content.space set revision_id = $1, updated_at = $2 where id = $3`, [revision, now, spaceId]);
  await db.query('commit');
}

/** The live revision of a space as stored: revisions in its lineage, and rows a cold read of its tree goes through. */
export async function lineageOf(
  db: pg.Client,
  spaceId: string,
): Promise<{ revisions: number; rows: number; pages: number }> {
  const { rows } = await db.query(
    `select jsonb_array_length(r.lineage) as revisions,
            (select count(*) from content.revision_page p where p.revision_id in (select jsonb_array_elements_text(r.lineage))) as rows
       from content.space s join content.revision r on r.id = s.revision_id where s.id = $1`,
    [spaceId],
  );
  const live = await db.query(
    `select count(*) as n from (select distinct on (p.page_id) p.deleted from jsonb_array_elements_text((select r.lineage from content.space s join content.revision r on r.id = s.revision_id where s.id = $1)) with ordinality l(id, pos)
       join content.revision_page p on p.revision_id = l.id order by p.page_id, l.pos desc) x where not x.deleted`,
    [spaceId],
  );
  return { revisions: Number(rows[0].revisions), rows: Number(rows[0].rows), pages: Number(live.rows[0].n) };
}
