import { beforeAll, describe, expect, it } from 'vitest';
import { marks, sql, sqlRun } from './sql.ts';
import { useTestOrm } from '../testing/index.ts';

const kit = useTestOrm('sql', 'kit_sql');

beforeAll(async () => {
  await sqlRun(
    kit.orm.em.fork(),
    `create table :schema.thing (id text primary key, n int, big bigint, flag boolean, at timestamptz, doc jsonb, bytes bytea, note text)`,
  );
});

const em = () => kit.orm.em.fork();
/** The same statement through the ORM's path (in a transaction) and the direct one (outside). */
const both = async <T = Record<string, unknown>>(text: string, params: unknown[]) => ({
  inTx: await em().transactional((tx) => sql<T>(tx, text, params)),
  direct: await sql<T>(em(), text, params),
});

describe('sql / sqlRun outside a transaction (prepared statements on the pool)', () => {
  it('binds every kind of parameter as the ORM formats it, and reads the same rows back', async () => {
    const at = new Date('2031-02-03T04:05:06.789Z');
    const row = [
      't1',
      42,
      9007199254740993n,
      true,
      at,
      { a: [1, 'x'], quote: "it's" },
      Buffer.from([0, 1, 255]),
      "O'Brien \\ ?",
    ];
    expect(await sqlRun(em(), `insert into :schema.thing values (?, ?, ?, ?, ?, ?, ?, ?)`, row)).toBe(1);
    await em().transactional((tx) =>
      sqlRun(tx, `insert into :schema.thing values (?, ?, ?, ?, ?, ?, ?, ?)`, ['t2', ...row.slice(1)]),
    );

    const { inTx, direct } = await both(
      `select * from :schema.thing where id = ? or (n = ? and flag = ? and at = ? and big = ? and note = ?) order by id`,
      ['t1', 42, true, at, 9007199254740993n, "O'Brien \\ ?"],
    );
    expect(direct).toEqual(inTx);
    expect(direct).toHaveLength(2);
    expect(direct[0]).toMatchObject({
      id: 't1',
      n: 42,
      flag: true,
      doc: { a: [1, 'x'], quote: "it's" },
      bytes: Buffer.from([0, 1, 255]),
      note: "O'Brien \\ ?",
    });
    // Raw rows keep the ORM's type parsers: a timestamp is a string until an entity maps it.
    expect(new Date(direct[0]!.at as string)).toEqual(at);
    expect(String(direct[0]!.big)).toBe('9007199254740993');
    expect(
      (await sql(em(), `select id from :schema.thing where note is not distinct from ? order by id`, [null])).length,
    ).toBe(0);
  });

  it('expands array parameters into lists through the ORM, as before', async () => {
    await sqlRun(em(), `insert into :schema.thing (id, n) values (?, ?), (?, ?), (?, ?)`, ['a1', 1, 'a2', 2, 'a3', 3]);
    const { inTx, direct } = await both<{ id: string }>(`select id from :schema.thing where id in (?) order by id`, [
      ['a1', 'a3'],
    ]);
    expect(direct).toEqual(inTx);
    expect(direct.map((r) => r.id)).toEqual(['a1', 'a3']);
    const listed = await sql<{ id: string }>(
      em(),
      `select id from :schema.thing where id in (${marks(2)}) order by id`,
      ['a2', 'a3'],
    );
    expect(listed.map((r) => r.id)).toEqual(['a2', 'a3']);
  });

  it('sees the rows a transaction committed, and counts what a statement changed', async () => {
    await em().transactional((tx) => sqlRun(tx, `insert into :schema.thing (id, n) values (?, ?)`, ['c1', 10]));
    expect(await sqlRun(em(), `update :schema.thing set n = n + 1 where id = ? or id = ?`, ['c1', 'missing'])).toBe(1);
    expect(await sql(em(), `select n from :schema.thing where id = ?`, ['c1'])).toEqual([{ n: 11 }]);
  });

  it('keeps answering a prepared `select *` after a migration changed its table', async () => {
    const read = () => sql<Record<string, unknown>>(em(), `select * from :schema.thing where id = ?`, ['c1']);
    // Prepared on every pooled connection the reads land on.
    await Promise.all(Array.from({ length: 12 }, read));
    await sqlRun(em(), `alter table :schema.thing add column added text default 'yes'`);
    const rows = await Promise.all(Array.from({ length: 12 }, read));
    for (const [row] of rows) expect(row).toMatchObject({ id: 'c1', added: 'yes' });
  });

  it('prepares a statement once per connection', async () => {
    // The statement looks for itself among the session's prepared statements.
    const named = `/* marker-named */ select count(*)::int as n from pg_prepared_statements where statement like '%/* marker-named */%' and ? = 1`;
    expect(await sql(em(), named, [1])).toEqual([{ n: 1 }]);
  });

  it("fails as the ORM's raw path does: with PostgreSQL's error", async () => {
    const missing = { code: '42P01', message: 'relation "kit_sql.nowhere" does not exist' };
    await expect(sql(em(), `select * from :schema.nowhere where id = ?`, ['x'])).rejects.toMatchObject(missing);
    await expect(
      em().transactional((tx) => sql(tx, `select * from :schema.nowhere where id = ?`, ['x'])),
    ).rejects.toMatchObject(missing);
    await expect(sqlRun(em(), `insert into :schema.thing (id) values (?)`, ['c1'])).rejects.toMatchObject({
      code: '23505',
    });
    await expect(
      em().transactional((tx) => sqlRun(tx, `insert into :schema.thing (id) values (?)`, ['c1'])),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
