import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, operationsOf, type UserActor } from '@quire/contracts';
import { OutboxEvent } from '../db/kit-entities.ts';
import { recordEvent } from '../events/outbox.ts';
import { testLogger, useTestOrm } from '../testing/index.ts';
import { callProcedure, createServiceTrpc, type ServiceContext } from './trpc.ts';

const Tested = defineEvent('content', 'test.imported', z.object({ n: z.number() }));
const op = operationsOf('content', { tags: ['tests'] });
const importThing = op({
  id: 'tests.import',
  input: z.object({ n: z.number() }),
  output: z.object({ n: z.number() }),
  type: 'mutation',
});

const kit = useTestOrm('trpc', 'kit_trpc');

const actor: UserActor = { kind: 'user', userId: 'u1', memberships: [] } as unknown as UserActor;
const context = () =>
  ({
    actor,
    requestId: 'r1',
    log: testLogger(),
    em: kit.orm.em.fork(),
    config: {},
    committed: [],
  }) as unknown as ServiceContext;

describe('implementPrepared (the mold of a mutation with slow work before its writes)', () => {
  const { t, implementPrepared } = createServiceTrpc<ServiceContext>();
  const seen: { prepareInTransaction?: boolean; handlerInTransaction?: boolean } = {};
  const router = t.router({
    tests: {
      import: implementPrepared(
        importThing,
        async ({ input, ctx }) => {
          seen.prepareInTransaction = ctx.em.isInTransaction();
          if (input.n < 0) throw new Error('refused before any write');
          return { doubled: input.n * 2 };
        },
        async ({ prepared, ctx }) => {
          seen.handlerInTransaction = ctx.em.isInTransaction();
          recordEvent(ctx.em, Tested, { n: prepared.doubled });
          if (prepared.doubled > 100) throw new Error('rolled back');
          return { n: prepared.doubled };
        },
      ),
    },
  });
  const call = (n: number, ctx = context()) => {
    return callProcedure(t.createCallerFactory(router)(ctx as never), 'tests.import', ctx, { n });
  };

  it('prepares outside the transaction, then writes inside it with what was prepared, committing the outbox rows', async () => {
    const ctx = context();
    expect(await call(4, ctx)).toEqual({ n: 8 });
    expect(seen).toEqual({ prepareInTransaction: false, handlerInTransaction: true });
    expect(ctx.committed.map((e) => e.data)).toEqual([{ n: 8 }]);
    expect(await kit.orm.em.fork().count(OutboxEvent, { type: 'test.imported' })).toBe(1);
  });

  it('writes nothing when preparing fails, and rolls the writes back when the handler fails', async () => {
    await expect(call(-1)).rejects.toThrow('refused before any write');
    await expect(call(60)).rejects.toThrow('rolled back');
    expect(await kit.orm.em.fork().count(OutboxEvent, { type: 'test.imported' })).toBe(1);
  });
});
