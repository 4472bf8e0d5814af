import { createServiceTrpc, type BaseContext, type EntityManager } from '@quire/kit';
import type { SitesConfig } from './env.ts';

export interface SitesContext extends BaseContext {
  em: EntityManager;
  config: SitesConfig;
}

export const { implement, serviceRouter } = createServiceTrpc<SitesContext>();
