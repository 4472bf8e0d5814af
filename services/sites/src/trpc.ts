import { createServiceTrpc, type ServiceContext } from '@quire/kit';
import type { SitesConfig } from './env.ts';

export type SitesContext = ServiceContext<SitesConfig>;

export const { implement, serviceRouter } = createServiceTrpc<SitesContext>();
