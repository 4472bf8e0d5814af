import type { z } from 'zod';
import type { Actor, AnyOperation } from '@quire/contracts';
import { ActorSigner } from '../rpc/actor-header.ts';
import { ServiceClient } from '../rpc/client.ts';
import { startService, type RunningService, type ServiceConfig, type ServiceDefinition } from '../service.ts';
import type { BaseContext } from '../rpc/trpc.ts';
import type { EventBus } from '../events/bus.ts';
import { TEST_SECRET, testLogger, type TestDatabase } from './index.ts';

export interface TestService {
  svc: RunningService;
  url: string;
  /** Calls an operation as `actor` through the service's typed client, over HTTP. */
  call<Op extends AnyOperation>(op: Op, input: z.input<Op['input']>, actor: Actor): Promise<z.output<Op['output']>>;
  close(): Promise<void>;
}

/** Boots a service on a test database (migrations applied) and a loopback port. */
export async function startTestService<C extends ServiceConfig, Ctx extends BaseContext>(
  def: ServiceDefinition<C, Ctx>,
  loadConfig: (env: Record<string, string | undefined>) => C,
  db: TestDatabase,
  opts: { env?: Record<string, string>; bus?: EventBus } = {},
): Promise<TestService> {
  const config = loadConfig({ DATABASE_URL: db.url, QUIRE_INTERNAL_SECRET: TEST_SECRET, QUIRE_PUBLIC_URL: 'http://quire.test', LOG_LEVEL: 'silent', ...opts.env });
  const svc = await startService(def, config, { log: testLogger(), ...(opts.bus ? { bus: opts.bus } : {}) });
  svc.startRelay();
  const url = await svc.listen(0);
  const client = new ServiceClient({ service: def.name, url });
  const signer = new ActorSigner(TEST_SECRET);
  return {
    svc,
    url,
    call: (op, input, actor) => client.call(op, input, { actorHeader: signer.sign(actor).header }),
    close: async () => {
      await client.close();
      await svc.close();
    },
  };
}
