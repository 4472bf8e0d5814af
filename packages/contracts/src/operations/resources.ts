import { z } from 'zod';
import { listOf, NoContentSchema, PageQueryShape } from '../common.ts';
import type { operationsOf, ServiceName } from '../operation.ts';
import { organizationId } from '../params.ts';

/**
 * A resource with the usual operations under one route (`/orgs/{organizationId}/translations`): list and create on
 * the route, get, update and delete on the item (`…/translations/{translationSettingsId}`). The ids, routes, inputs
 * and outputs follow from it; each operation says only what is its own.
 */
export interface Resource<N extends string, W extends z.ZodRawShape, P extends z.ZodRawShape, Item extends z.ZodType> {
  /** The noun of the ids: `translations` (`translations.list`…). */
  noun: N;
  /** What holds the resource: `ORGANIZATION`. */
  in: Holder<W>;
  /** The resource's route below its holder's, when not its noun: `share-links`. */
  path?: string;
  /** The item's path parameter: `{ translationSettingsId }`. */
  param: P;
  item: Item;
}

/** What holds resources: its route and its path parameters. */
export interface Holder<W extends z.ZodRawShape> {
  route: `/${string}`;
  params: W;
}

export const ORGANIZATION: Holder<{ organizationId: typeof organizationId }> = {
  route: '/orgs/{organizationId}',
  params: { organizationId },
};

/**
 * The operations of a resource, each built from GitBook's operationId and its summary (the name of the export and
 * what `docs/operations.md` says), then what is its own: the query of the list, the body of a create or an update and
 * their method where GitBook's is not the usual one (`PUT`), the status of the delete (204 or 205).
 */
export function resourceOps<
  const S extends ServiceName,
  const N extends string,
  W extends z.ZodRawShape,
  P extends z.ZodRawShape,
  Item extends z.ZodType,
>(op: ReturnType<typeof operationsOf<S>>, r: Resource<N, W, P, Item>) {
  const route = `${r.in.route}/${r.path ?? r.noun}` as const;
  const itemRoute = `${route}/${placeholders(r.param)}` as const;
  return {
    list: <Q extends z.ZodRawShape = Record<never, never>>(operationId: string, summary: string, query?: Q) =>
      op({
        id: `${r.noun}.list`,
        input: z.object({ ...r.in.params, ...PageQueryShape, ...(query as Q) }),
        output: listOf(r.item),
        http: { route: `GET ${route}`, operationId, summary },
      }),
    create: <B extends z.ZodRawShape>(operationId: string, summary: string, body: B, method: 'POST' | 'PUT' = 'POST') =>
      op({
        id: `${r.noun}.create`,
        input: z.object({ ...r.in.params, ...body }),
        output: r.item,
        http: { route: `${method} ${route}`, status: 201, operationId, summary },
      }),
    get: (operationId: string, summary: string) =>
      op({
        id: `${r.noun}.get`,
        input: z.object({ ...r.in.params, ...r.param }),
        output: r.item,
        http: { route: `GET ${itemRoute}`, operationId, summary },
      }),
    update: <B extends z.ZodRawShape>(
      operationId: string,
      summary: string,
      body: B,
      method: 'PATCH' | 'PUT' = 'PATCH',
    ) =>
      op({
        id: `${r.noun}.update`,
        input: z.object({ ...r.in.params, ...r.param, ...body }),
        output: r.item,
        http: { route: `${method} ${itemRoute}`, operationId, summary },
      }),
    delete: (operationId: string, summary: string, status: 204 | 205) =>
      op({
        id: `${r.noun}.delete`,
        input: z.object({ ...r.in.params, ...r.param }),
        output: NoContentSchema,
        http: { route: `DELETE ${itemRoute}`, status, operationId, summary },
      }),
  };
}

/** The route placeholders of path parameters: `{ spaceId }` → `{spaceId}`. */
export const placeholders = (params: z.ZodRawShape) => `{${Object.keys(params).join('}/{')}}`;
