import { closeOnSignals, createLogger, startService } from '@quire/kit';
import { loadContentConfig } from './env.ts';
import { contentService } from './service.ts';

const config = loadContentConfig();
const log = createLogger('content', config.LOG_LEVEL);
const svc = await startService(contentService, config, { log });
svc.startRelay();
const url = await svc.listen(config.PORT);
log.info({ url }, 'content listening');
closeOnSignals(() => svc.close(), log);
