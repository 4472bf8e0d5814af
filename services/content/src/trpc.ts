import { createServiceTrpc, type ServiceContext } from '@quire/kit';
import type { ContentConfig } from './env.ts';

export type ContentContext = ServiceContext<ContentConfig>;

export const { implement, implementPrepared, serviceRouter } = createServiceTrpc<ContentContext>();
