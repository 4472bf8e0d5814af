import { closeOnSignals, createLogger, startService } from '@quire/kit';
import { loadOrgAdminConfig } from './env.ts';
import { orgAdminService } from './service.ts';

const config = loadOrgAdminConfig();
const log = createLogger('org-admin', config.LOG_LEVEL);
const svc = await startService(orgAdminService, config, { log });
svc.startRelay();
const url = await svc.listen(config.PORT);
log.info({ url }, 'org-admin listening');
closeOnSignals(() => svc.close(), log);
