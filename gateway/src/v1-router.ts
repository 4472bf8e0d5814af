import { initTRPC, type AnyProcedure, type AnyRouter } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { HTTP_OPERATIONS, type Actor, type AnyOperation } from '@quire/contracts';
import type { CallContext, ServiceClients } from '@quire/kit';

export interface GatewayContext {
  actor: Actor;
  clients: ServiceClients;
  /** The call to the owning service: the signed actor and request id go out, the committed events come back. */
  call: CallContext;
}

const t = initTRPC.meta<OpenApiMeta>().context<GatewayContext>().create({ isDev: false, isServer: true });

export interface V1Route {
  op: AnyOperation;
  procedure: AnyProcedure;
}

/**
 * The gateway's v1 router, generated from the contract registry: one procedure per HTTP operation,
 * with the contract's schemas and OpenAPI meta, forwarding to the owning service's procedure through
 * its typed client. No operation is written by hand here.
 *
 * `purpose: 'serve'` leaves the output schema off: the owning service already validated and stripped
 * its output with the very same contract schema, so parsing it again here is double work. The
 * `'document'` router (same function, same schemas) carries it for trpc-to-openapi.
 */
export function buildV1Router(operations: AnyOperation[] = HTTP_OPERATIONS, purpose: 'serve' | 'document' = 'serve'): { router: AnyRouter; routes: V1Route[] } {
  const record: Record<string, AnyProcedure> = {};
  const routes: V1Route[] = [];
  for (const op of operations) {
    const http = op.http!;
    const withInput = t.procedure
      .meta({
        openapi: {
          method: http.method,
          path: `/v1${http.path === '/' ? '' : http.path}` as `/${string}`,
          operationId: http.operationId,
          summary: http.summary,
          tags: http.tags,
          protect: op.access !== 'public',
        },
      })
      .input(op.input);
    const base = purpose === 'document' ? withInput.output(op.output) : withInput;
    const forward = ({ input, ctx }: { input: unknown; ctx: GatewayContext }) => ctx.clients.get(op.service).call(op, input as never, ctx.call);
    const procedure = (op.type === 'query' ? base.query(forward) : base.mutation(forward)) as AnyProcedure;
    record[`${op.service}__${op.id.replaceAll('.', '_')}`] = procedure;
    routes.push({ op, procedure });
  }
  return { router: t.router(record), routes };
}
