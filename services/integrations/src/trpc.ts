import { createServiceTrpc, type ServiceContext } from '@quire/kit';
import type { IntegrationsConfig } from './env.ts';

export type IntegrationsContext = ServiceContext<IntegrationsConfig>;

export const { implement, serviceRouter } = createServiceTrpc<IntegrationsContext>();
