import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initTRPC } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ACTOR_EVICTING_EVENTS, type Actor } from '@quire/contracts';
import { testLogger, TEST_SECRET } from '../testing/index.ts';
import { createHttpApp, createInternalApp } from '../service.ts';
import { ActorSigner } from './actor-header.ts';
import { HttpTransport } from './client.ts';
import { createProcedureInvoker, registerRpcRoutes } from './server.ts';
import type { ServiceContext } from './trpc.ts';
import type { BlobStore } from '../blobs/blob-store.ts';

const t = initTRPC.context<ServiceContext>().create({ isDev: false });
const event = (type: string) => ({ id: type, type, occurredAt: new Date(0).toISOString(), data: {} });
const evicting = ACTOR_EVICTING_EVENTS[0]!.type;
/** Echoes its input's own keys (as a contract schema leaves them) and the caller's actor kind. */
const router = t.router({
  echo: t.procedure
    .input(z.object({ title: z.string().optional() }))
    .mutation(({ input, ctx }) => ({ keys: Object.keys(input), actor: ctx.actor.kind })),
  /** Commits two events: one that makes cached actors stale, one that does not. */
  commit: t.procedure.mutation(({ ctx }) => {
    ctx.committed.push(event(evicting), event('space.created'));
    return { ok: true };
  }),
});

const listen = async (app: FastifyInstance) => {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
};

describe('HttpTransport against a service app', () => {
  const signer = new ActorSigner(TEST_SECRET);
  const log = testLogger();
  const app = createInternalApp(log);
  const invoker = createProcedureInvoker({
    service: 'content',
    router,
    signer,
    log,
    blobs: {} as BlobStore,
    createContext: (base) => ({ ...base, committed: [] }) as unknown as ServiceContext,
  });
  registerRpcRoutes(app, invoker);
  // A process that is not a Quire service: it answers 413 to everything, without the tRPC envelope.
  const other = createHttpApp(log);
  other.post('/trpc/:path', async (_req, reply) =>
    reply.code(413).send({ statusCode: 413, error: 'Payload Too Large', message: 'Request body is too large' }),
  );
  let transport: HttpTransport;
  let foreign: HttpTransport;

  beforeAll(async () => {
    transport = new HttpTransport('content', await listen(app));
    foreign = new HttpTransport('content', await listen(other));
  });
  afterAll(async () => {
    await Promise.all([transport.close(), foreign.close()]);
    await Promise.all([app.close(), other.close()]);
  });

  const call = async (actor: Actor) => ({ actorHeader: (await signer.sign(actor)).header, requestId: 'r1' });

  it('drops a `__proto__` key of the input (it comes from a public query string) instead of refusing the call', async () => {
    const input = JSON.parse('{"title":"x","__proto__":"1","constructor":{"prototype":{"a":1}}}') as Record<
      string,
      unknown
    >;
    expect(Object.keys(input)).toContain('__proto__');
    await expect(transport.send('echo', 'mutation', input, await call({ kind: 'anonymous' }))).resolves.toEqual({
      keys: ['title'],
      actor: 'anonymous',
    });
  });

  it("hands the caller the committed events that make cached actors stale, from the answer's header", async () => {
    const c = await call({ kind: 'anonymous' });
    await expect(transport.send('commit', 'mutation', undefined, c)).resolves.toEqual({ ok: true });
    expect((c as { events?: unknown[] }).events).toEqual([event(evicting)]);
  });

  it('answers an unsigned call 401, an unknown procedure 404, in the error shape with its status', async () => {
    await expect(transport.send('echo', 'mutation', {}, { actorHeader: 'forged' })).rejects.toMatchObject({
      reason: 'unauthenticated',
    });
    await expect(transport.send('nope', 'query', {}, await call({ kind: 'anonymous' }))).rejects.toMatchObject({
      reason: 'not_found',
    });
  });

  it("answers an input its schema refuses 400 naming the field, in tRPC's error envelope", async () => {
    await expect(
      transport.send('echo', 'mutation', { title: 5 }, await call({ kind: 'anonymous' })),
    ).rejects.toMatchObject({ reason: 'invalid_input', message: expect.stringContaining('title') });
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/echo',
      headers: { 'content-type': 'application/json', 'x-quire-actor': (await call({ kind: 'anonymous' })).actorHeader },
      payload: '{"title":5}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: { code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400, reason: 'invalid_input' } },
    });
  });

  it('carries an actor header far larger than the 16 KiB Node allows by default', async () => {
    const memberships = Array.from({ length: 1500 }, (_, i) => ({
      organization: `organization-${i}`,
      role: 'read' as const,
      teams: [],
    }));
    const actor: Actor = { kind: 'user', userId: 'u1', memberships };
    const { actorHeader } = await call(actor);
    expect(actorHeader.length).toBeGreaterThan(64 * 1024);
    await expect(transport.send('echo', 'mutation', {}, { actorHeader })).resolves.toEqual({ keys: [], actor: 'user' });
  });

  it("reports a refusal of the service's HTTP layer with its status, and an unreachable service as unavailable", async () => {
    await expect(foreign.send('echo', 'mutation', {}, await call({ kind: 'anonymous' }))).rejects.toMatchObject({
      reason: 'payload_too_large',
    });
    const closed = new HttpTransport('content', 'http://127.0.0.1:9');
    await expect(closed.send('echo', 'mutation', {}, await call({ kind: 'anonymous' }))).rejects.toMatchObject({
      reason: 'unavailable',
      message: 'The content service is unavailable',
    });
    await closed.close();
  });

  it('answers 503 with Retry-After once closed, over HTTP and in process', async () => {
    invoker.close();
    await expect(transport.send('echo', 'mutation', {}, await call({ kind: 'anonymous' }))).rejects.toMatchObject({
      reason: 'unavailable',
    });
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/echo',
      headers: { 'content-type': 'application/json', 'x-quire-actor': (await call({ kind: 'anonymous' })).actorHeader },
      payload: '{}',
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    await expect(invoker.invoke('echo', {}, await call({ kind: 'anonymous' }))).rejects.toMatchObject({
      reason: 'unavailable',
    });
  });
});

describe('HttpTransport against a peer that takes the call and never answers', () => {
  const silent = createServer(() => {});
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const addr = silent.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('gives up after its answer timeout with a 503, not a hang', async () => {
    const transport = new HttpTransport('content', url, 4, { answerMs: 300 });
    const started = performance.now();
    const err = await transport.send('echo', 'mutation', {}, { actorHeader: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(err).toMatchObject({ reason: 'unavailable', message: 'The content service is unavailable' });
    await transport.close();
  });
});
