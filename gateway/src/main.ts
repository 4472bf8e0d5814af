import { closeOnSignals, createBus, createLogger } from '@quire/kit';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './env.ts';

const config = loadGatewayConfig();
const log = createLogger('gateway', config.LOG_LEVEL, config.QUIRE_LOG_FORMAT);
const bus = config.NATS_URL ? await createBus(config, log, 'gateway') : undefined;
const gateway = await buildGateway({ config, log, ...(bus ? { bus } : {}) });
await gateway.app.listen({ host: config.HOST, port: config.PORT });
log.info({ port: config.PORT }, 'gateway listening');
closeOnSignals(async () => {
  await gateway.close();
  await bus?.close();
}, log);
