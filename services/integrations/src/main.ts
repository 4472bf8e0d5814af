import { closeOnSignals, createLogger, startService } from '@quire/kit';
import { loadIntegrationsConfig } from './env.ts';
import { integrationsService } from './service.ts';

const config = loadIntegrationsConfig();
const log = createLogger('integrations', config.LOG_LEVEL);
const svc = await startService(integrationsService, config, { log });
svc.startRelay();
const url = await svc.listen(config.PORT);
log.info({ url }, 'integrations listening');
closeOnSignals(() => svc.close(), log);
