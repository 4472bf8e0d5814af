import { runServiceMain } from '@quire/kit';
import { loadSitesConfig } from './env.ts';
import { sitesService } from './service.ts';

await runServiceMain(sitesService, loadSitesConfig());
