import type { AnyOperation } from '@quire/contracts';
import { createServiceTrpc, eventsRecordedIn, type Handler, type ServiceContext } from '@quire/kit';
import type { SitesConfig } from './env.ts';
import { evictSite, sitesOf, UNSETTLED_MS } from './modules/published/site-cache.ts';

export type SitesContext = ServiceContext<SitesConfig>;

const kit = createServiceTrpc<SitesContext>();
export const { implementPrepared, implementStream, serviceRouter } = kit;

/**
 * The kit's `implement`; a mutation that records a site's event (a change of its settings, structure or
 * publication) also evicts that site from this process's published-site cache and keeps it out until its
 * transaction has surely committed (`site-cache.ts`): this process serves the change as soon as it is committed.
 */
export function implement<Op extends AnyOperation>(op: Op, handler: Handler<Op, SitesContext>) {
  if (op.type === 'query') return kit.implement(op, handler);
  return kit.implement(op, async (args) => {
    const out = await handler(args);
    for (const site of sitesOf(eventsRecordedIn(args.ctx.em))) evictSite(site, UNSETTLED_MS);
    return out;
  });
}
