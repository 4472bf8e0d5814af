import { describe, expect, it } from 'vitest';
import { sql, sqlRun } from '../db/sql.ts';
import { useTestOrm } from '../testing/index.ts';
import { isRetryableConflict, retryTransaction } from './retry-transaction.ts';

const kit = useTestOrm('retry', 'kit_retry');

describe('retryTransaction', () => {
  it('turns a check-then-insert race into one insert and updates, with every caller answered', async () => {
    const em = () => kit.orm.em.fork();
    await sqlRun(em(), `create table :schema.slot (slug text primary key, hits int not null)`);
    // Racy on purpose: look up, then insert or update (what a PUT written naively does).
    const put = () =>
      retryTransaction(() =>
        em().transactional(async (tx) => {
          const [row] = await sql<{ hits: number }>(tx, `select hits from :schema.slot where slug = 'a'`);
          await new Promise((r) => setTimeout(r, 5));
          if (row) await sqlRun(tx, `update :schema.slot set hits = hits + 1 where slug = 'a'`);
          else await sqlRun(tx, `insert into :schema.slot (slug, hits) values ('a', 1)`);
          return row ? 'updated' : 'created';
        }),
      );
    const outcomes = await Promise.all(Array.from({ length: 8 }, put));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect((await sql<{ hits: number }>(em(), `select hits from :schema.slot`))[0]!.hits).toBe(8);
  });

  it('throws other errors at once, and a conflict that outlasts its attempts', async () => {
    let runs = 0;
    await expect(retryTransaction(async () => (runs++, Promise.reject(new Error('boom'))))).rejects.toThrow('boom');
    expect(runs).toBe(1);
    const conflict = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(retryTransaction(async () => (runs++, Promise.reject(conflict)), { attempts: 3 })).rejects.toBe(
      conflict,
    );
    expect(runs).toBe(4);
    expect(isRetryableConflict({ cause: { sqlState: '40P01' } })).toBe(true);
    expect(isRetryableConflict({ code: '23502' })).toBe(false);
  });
});
