// (a) The baseline: a bare fastify route doing the same Postgres lookup as GET /v1/spaces/{id}
// (node-postgres pool, primary-key select, JSON reply) — no auth, no validation, no hop.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/spaces/:id', async (req, reply) => {
  const { rows } = await pool.query('select * from content.space where id = $1 and deleted_at is null', [
    req.params.id,
  ]);
  if (!rows[0]) return reply.code(404).send({ error: { code: 404, message: 'Space not found' } });
  return rows[0];
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });

// Stop like the services do (so the bench can wait for it, and --cpu-prof gets written).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => pool.end())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
