import { runServiceMain } from '@quire/kit';
import { loadOrgAdminConfig } from './env.ts';
import { orgAdminService } from './service.ts';

await runServiceMain(orgAdminService, loadOrgAdminConfig());
