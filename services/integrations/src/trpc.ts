import { createServiceTrpc, type BaseContext, type EntityManager } from '@quire/kit';
import type { IntegrationsConfig } from './env.ts';

export interface IntegrationsContext extends BaseContext {
  em: EntityManager;
  config: IntegrationsConfig;
}

export const { implement, serviceRouter } = createServiceTrpc<IntegrationsContext>();
