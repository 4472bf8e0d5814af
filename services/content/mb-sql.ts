import { createOrm, sql } from '@quire/kit';
import { createTestDatabase } from '@quire/kit/testing';
import { migrations } from './src/migrations/index.ts';
import { contentService } from './src/service.ts';
import { spaceRepository } from './src/modules/spaces/space.repository.ts';

const db = await createTestDatabase('mb');
const orm = await createOrm({ url: db.url, schema: 'content', entities: contentService.entities, migrations });
const { migrate } = await import('@quire/kit');
await (migrate as any)(orm);
await orm.em.getConnection().execute(`insert into content.space (id, organization_id, parent_id, position, title, emoji, visibility, edit_mode, revision_id, created_at, updated_at) values ('sp1','o1',null,1,'T','','private','live','r1',now(),now())`);
const pool: any = await orm.em.getConnection().getNativeClient();
const N = 20000, C = 10;
async function bench(label: string, f: () => Promise<unknown>) {
  const run = async (n: number) => { let i = 0; await Promise.all(Array.from({ length: C }, async () => { while (i++ < n) await f(); })); };
  await run(2000);
  const cpu0 = process.cpuUsage(); const t0 = performance.now();
  await run(N);
  const ms = performance.now() - t0; const cpu = process.cpuUsage(cpu0);
  console.log(label.padEnd(28), (N / ms * 1000).toFixed(0).padStart(6), 'ops/s', ((cpu.user + cpu.system) / N).toFixed(1).padStart(6), 'µs CPU/op');
}
for (let r = 0; r < 3; r++) {
  await bench('sql() via MikroORM', () => sql(orm.em.fork(), 'select * from :schema.space where id = ?', ['sp1']));
  await bench('findById (fork+sql+snapshot)', () => spaceRepository.findById(orm.em.fork(), 'sp1'));
  await bench('pg unnamed $1', () => pool.query('select * from content.space where id = $1', ['sp1']));
  await bench('pg named $1', () => pool.query({ name: 'sp_by_id', text: 'select * from content.space where id = $1', values: ['sp1'] }));
  await bench('pg simple (inlined)', () => pool.query(`select * from content.space where id = 'sp1'`));
}
await orm.close(); await db.drop();
