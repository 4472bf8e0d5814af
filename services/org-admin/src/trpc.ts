import { createServiceTrpc, type BaseContext, type EntityManager } from '@quire/kit';
import type { OrgAdminConfig } from './env.ts';

export interface OrgAdminContext extends BaseContext {
  em: EntityManager;
  config: OrgAdminConfig;
}

export const { implement, serviceRouter } = createServiceTrpc<OrgAdminContext>();
