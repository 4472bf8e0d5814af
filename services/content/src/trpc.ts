import { createServiceTrpc, type ServiceContext } from '@quire/kit';
import type { ContentConfig } from './env.ts';
import { auditOrganizationOf } from './modules/audit/audit-scope.repository.ts';

export type ContentContext = ServiceContext<ContentConfig>;

export const { implement, implementPrepared, serviceRouter } = createServiceTrpc<ContentContext>({
  auditOrganization: auditOrganizationOf,
});
