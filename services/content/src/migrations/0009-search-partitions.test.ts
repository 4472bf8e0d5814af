import { describe, expect, it } from 'vitest';
import { migrate, sql, sqlRun } from '@quire/kit';
import { useMigrationTest } from '@quire/kit/testing';
import { SEARCH_PAGE_PARTITIONS } from './0009-search-partitions.ts';
import { migrations } from './index.ts';

const NAME = '0009_search_partitions';

describe('migration 0009: search_page partitioned by space', () => {
  const t = useMigrationTest('search-partitions', 'content', migrations, NAME);

  it('keeps the indexed pages, finds them through the new indexes, and keeps a large row whole', async () => {
    const before = await t.before();
    const em = before.em.fork();
    const now = new Date();
    for (const space of ['s1', 's2', 's3']) {
      await sqlRun(
        em,
        `insert into :schema.space (id, organization_id, title, visibility, revision_id, created_at, updated_at) values (?, 'o1', ?, 'private', 'r1', ?, ?)`,
        [space, space, now, now],
      );
    }
    // A page of about 2 kB of text (as 0007 stored it, its small columns out of line), and a few small ones.
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    await sqlRun(
      em,
      `insert into :schema.search_page (space_id, page_id, title, path, description, ancestors, document_hash, title_tsv, tsv)
       select x.space, x.page, x.title, x.page, '', '["Parent"]', null, setweight(to_tsvector('english', x.title), 'A'),
              setweight(to_tsvector('english', x.title), 'A') || to_tsvector('english', x.body)
         from (values ('s1', 'p1', 'Installing the zephyr', ?), ('s2', 'p2', 'Other', 'the zephyrs blow'), ('s3', 'p3', 'Third', 'nothing here')) as x(space, page, title, body)`,
      [long],
    );
    const rows = async (e = em) =>
      sql<{ space_id: string; page_id: string; title: string; ancestors: string[]; tsv: string }>(
        e,
        `select space_id, page_id, title, ancestors, tsv::text as tsv from :schema.search_page order by page_id`,
      );
    const copied = await rows();

    const after = await t.after();
    expect(await migrate(after)).toEqual([NAME]);
    const em2 = after.em.fork();
    expect(await rows(em2)).toEqual(copied);

    const partitions = await sql<{ name: string; options: string[] | null }>(
      em2,
      `select c.relname as name, c.reloptions as options from pg_catalog.pg_inherits i join pg_catalog.pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'content.search_page'::regclass order by c.relname`,
    );
    expect(partitions).toHaveLength(SEARCH_PAGE_PARTITIONS);
    expect(new Set(partitions.map((p) => p.options?.join(',')))).toEqual(new Set(['toast_tuple_target=8160']));
    // Every row in the partition its space hashes to; the 2 kB row with nothing moved out of line.
    expect((await sql<{ n: string }>(em2, `select count(distinct tableoid) as n from :schema.search_page`))[0]!.n).toBe(
      '3',
    );
    const [toasted] = await sql<{ bytes: string }>(
      em2,
      `select coalesce(sum(pg_catalog.pg_relation_size(c.reltoastrelid)), 0) as bytes from pg_catalog.pg_inherits i join pg_catalog.pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'content.search_page'::regclass and c.reltoastrelid <> 0`,
    );
    expect(toasted!.bytes).toBe('0');

    // The GIN indexes are the partitions' own, without a pending list, and a search of the text finds its pages.
    const indexes = await sql<{ name: string; options: string[] | null }>(
      em2,
      `select c.relname as name, c.reloptions as options from pg_catalog.pg_index x join pg_catalog.pg_class c on c.oid = x.indexrelid
        where x.indrelid = 'content.search_page'::regclass order by c.relname`,
    );
    expect(indexes).toEqual([
      { name: 'search_page_document', options: null },
      { name: 'search_page_pkey', options: null },
      { name: 'search_page_text', options: ['fastupdate=off'] },
      { name: 'search_page_title', options: ['fastupdate=off'] },
    ]);
    const found = (where: string) =>
      sql<{ page_id: string }>(em2, `select page_id from :schema.search_page where ${where} order by page_id`, [
        'zephyr',
      ]);
    expect((await found(`tsv @@ to_tsquery('english', ?)`)).map((r) => r.page_id)).toEqual(['p1', 'p2']);
    expect((await found(`title_tsv @@ to_tsquery('english', ?)`)).map((r) => r.page_id)).toEqual(['p1']);

    // A space's rows go with it (the foreign key survived).
    await sqlRun(em2, `delete from :schema.space where id = 's1'`);
    expect((await rows(em2)).map((r) => r.page_id)).toEqual(['p2', 'p3']);
  });
});
