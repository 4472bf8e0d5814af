import { runServiceMain } from '@quire/kit';
import { loadIntegrationsConfig } from './env.ts';
import { integrationsService } from './service.ts';

await runServiceMain(integrationsService, loadIntegrationsConfig());
