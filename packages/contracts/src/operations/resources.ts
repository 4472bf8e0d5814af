import { z } from 'zod';
import { listOf, NoContentSchema, PageQueryShape } from '../common.ts';
import type { HttpRoute, operationsOf, ServiceName } from '../operation.ts';
import { organizationId } from '../params.ts';

/**
 * A resource with the usual operations under one route (`/orgs/{organizationId}/translations`): list and create on
 * the route, get, update and delete on the item (`…/translations/{translationSettingsId}`). The ids, routes, inputs
 * and outputs follow from it; each operation says only what is its own: GitBook's operationId, the summary, the body
 * (and the method or status where GitBook's differs from the usual one).
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

/** How an operation of a resource is served: GitBook's operationId, the summary, and the tags where not the builder's. */
export type Served = Pick<HttpRoute, 'operationId' | 'summary' | 'tags'>;

/** The operations of a resource, each built from its `Served` (and its body or query where it has one). */
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
    list: <Q extends z.ZodRawShape = Record<never, never>>(http: Served, query?: Q) =>
      op({
        id: `${r.noun}.list`,
        input: z.object({ ...r.in.params, ...PageQueryShape, ...(query as Q) }),
        output: listOf(r.item),
        http: { route: `GET ${route}`, ...http },
      }),
    create: <B extends z.ZodRawShape>(body: B, { method = 'POST', ...http }: Served & { method?: 'POST' | 'PUT' }) =>
      op({
        id: `${r.noun}.create`,
        input: z.object({ ...r.in.params, ...body }),
        output: r.item,
        http: { route: `${method} ${route}`, status: 201, ...http },
      }),
    get: (http: Served) =>
      op({
        id: `${r.noun}.get`,
        input: z.object({ ...r.in.params, ...r.param }),
        output: r.item,
        http: { route: `GET ${itemRoute}`, ...http },
      }),
    update: <B extends z.ZodRawShape>(body: B, { method = 'PATCH', ...http }: Served & { method?: 'PATCH' | 'PUT' }) =>
      op({
        id: `${r.noun}.update`,
        input: z.object({ ...r.in.params, ...r.param, ...body }),
        output: r.item,
        http: { route: `${method} ${itemRoute}`, ...http },
      }),
    delete: (http: Served & { status: 204 | 205 }) =>
      op({
        id: `${r.noun}.delete`,
        input: z.object({ ...r.in.params, ...r.param }),
        output: NoContentSchema,
        http: { route: `DELETE ${itemRoute}`, ...http },
      }),
  };
}

/** The route placeholders of path parameters: `{ spaceId }` → `{spaceId}`. */
export const placeholders = (params: z.ZodRawShape) => `{${Object.keys(params).join('}/{')}}`;
