import { runServiceMain } from '@quire/kit';
import { loadContentConfig } from './env.ts';
import { contentService } from './service.ts';

await runServiceMain(contentService, loadContentConfig());
