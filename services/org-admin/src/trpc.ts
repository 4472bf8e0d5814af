import type { UserActor } from '@quire/contracts';
import { createServiceTrpc, type ServiceContext } from '@quire/kit';
import type { OrgAdminConfig } from './env.ts';

export type OrgAdminContext = ServiceContext<OrgAdminConfig>;
/** The context of an operation with `access: 'user'`. */
export type UserContext = Omit<OrgAdminContext, 'actor'> & { actor: UserActor };

export const { implement, implementPrepared, serviceRouter } = createServiceTrpc<OrgAdminContext>();
