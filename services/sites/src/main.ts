import { closeOnSignals, createLogger, startService } from '@quire/kit';
import { loadSitesConfig } from './env.ts';
import { sitesService } from './service.ts';

const config = loadSitesConfig();
const log = createLogger('sites', config.LOG_LEVEL);
const svc = await startService(sitesService, config, { log });
svc.startRelay();
const url = await svc.listen(config.PORT);
log.info({ url }, 'sites listening');
closeOnSignals(() => svc.close(), log);
