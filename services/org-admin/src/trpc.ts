import type { UserActor } from '@quire/contracts';
import { createServiceTrpc, type BaseContext, type EntityManager, type ServiceClients } from '@quire/kit';
import type { OrgAdminConfig } from './env.ts';

export interface OrgAdminContext extends BaseContext {
  em: EntityManager;
  config: OrgAdminConfig;
  /** Typed clients of the other services (internal operations, e.g. the content service's space counts). */
  peers: ServiceClients;
}

/** The context of an operation with `access: 'user'`. */
export type UserContext = Omit<OrgAdminContext, 'actor'> & { actor: UserActor };

export const { implement, serviceRouter } = createServiceTrpc<OrgAdminContext>();
