import { createServiceTrpc, type BaseContext, type EntityManager } from '@quire/kit';
import type { ContentConfig } from './env.ts';

export interface ContentContext extends BaseContext {
  em: EntityManager;
  config: ContentConfig;
}

export const { implement, serviceRouter } = createServiceTrpc<ContentContext>();
