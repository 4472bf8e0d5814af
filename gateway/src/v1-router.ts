import { initTRPC, type AnyProcedure, type AnyRouter } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { HTTP_OPERATIONS, type AnyOperation } from '@quire/contracts';

const t = initTRPC.meta<OpenApiMeta>().create({ isDev: false, isServer: true });

/**
 * The v1 router trpc-to-openapi reads to generate `/v1/openapi.json`: one procedure per HTTP operation of
 * the contract registry, with the contract's input and output schemas and OpenAPI meta. It documents the
 * API and never serves it (rest.ts routes the calls): its procedures have no resolver worth calling.
 */
export function buildV1Router(operations: readonly AnyOperation[] = HTTP_OPERATIONS): AnyRouter {
  const record: Record<string, AnyProcedure> = {};
  for (const op of operations) {
    const http = op.http!;
    const base = t.procedure
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
      .input(op.input)
      .output(op.output);
    const unserved = (): never => {
      throw new Error(`${op.id} is served by rest.ts, not by the document router`);
    };
    record[`${op.service}__${op.id.replaceAll('.', '_')}`] = (
      op.type === 'query' ? base.query(unserved) : base.mutation(unserved)
    ) as AnyProcedure;
  }
  return t.router(record);
}
