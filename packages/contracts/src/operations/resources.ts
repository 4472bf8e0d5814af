import { z } from 'zod';
import { listOf, NoContentSchema, PageQueryShape } from '../common.ts';
import type { operationsOf, ServiceName } from '../operation.ts';
import { changeRequestId, organizationId, revisionId, spaceId } from '../params.ts';

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

/** A space, as what holds its Git connection: `/spaces/{spaceId}`. */
export const SPACE: Holder<{ spaceId: typeof spaceId }> = { route: '/spaces/{spaceId}', params: { spaceId } };

/** A change request, as what holds its reviews: `/spaces/{spaceId}/change-requests/{changeRequestId}`. */
export const CHANGE_REQUEST: Holder<{ spaceId: typeof spaceId; changeRequestId: typeof changeRequestId }> = {
  route: '/spaces/{spaceId}/change-requests/{changeRequestId}',
  params: { spaceId, changeRequestId },
};

/**
 * The reads of a revision's content exist for three revisions: the space's live one (`/spaces/{s}/content`),
 * a change request's (`/spaces/{s}/change-requests/{cr}/content`) and any revision of the space
 * (`/spaces/{s}/revisions/{revisionId}`). One definition per read, three operations from it.
 */
export const REVISION_SCOPES = {
  space: { prefix: '/spaces/{spaceId}/content', ids: { spaceId } },
  changeRequest: {
    prefix: '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
    ids: { spaceId, changeRequestId },
  },
  revision: { prefix: '/spaces/{spaceId}/revisions/{revisionId}', ids: { spaceId, revisionId } },
} as const;
export type RevisionScope = keyof typeof REVISION_SCOPES;

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
    ...singletonOps(op, {
      noun: r.noun,
      in: { route: `${route}/${placeholders(r.param)}`, params: { ...r.in.params, ...r.param } },
      item: r.item,
    }),
  };
}

/**
 * A resource its holder has one of (a site's customization, a space's Git connection), without an id of its own:
 * read, written and deleted at its holder's route and `path` (the item of a `resourceOps`, at the item's route).
 */
export interface Singleton<N extends string, W extends z.ZodRawShape, Item extends z.ZodType> {
  noun: N;
  in: Holder<W>;
  /** Below the holder's route: `customization`. */
  path?: string;
  item: Item;
}

/**
 * The operations of a singleton, each built from GitBook's operationId and its summary, then what is its own: the
 * query of the read, the body of a write and its method, the status of the delete (204 or 205). A write is an
 * `update`, or an `upsert` where it creates what is not there yet.
 */
export function singletonOps<
  const S extends ServiceName,
  const N extends string,
  W extends z.ZodRawShape,
  Item extends z.ZodType,
>(op: ReturnType<typeof operationsOf<S>>, r: Singleton<N, W, Item>) {
  const route: `/${string}` = r.path ? `${r.in.route}/${r.path}` : r.in.route;
  const write =
    <const V extends 'update' | 'upsert'>(verb: V) =>
    <B extends z.ZodRawShape>(operationId: string, summary: string, body: B, method: 'PATCH' | 'PUT' = 'PATCH') =>
      op({
        id: `${r.noun}.${verb}`,
        input: z.object({ ...r.in.params, ...body }),
        output: r.item,
        http: { route: `${method} ${route}`, operationId, summary },
      });
  return {
    get: <Q extends z.ZodRawShape = Record<never, never>>(operationId: string, summary: string, query?: Q) =>
      op({
        id: `${r.noun}.get`,
        input: z.object({ ...r.in.params, ...(query as Q) }),
        output: r.item,
        http: { route: `GET ${route}`, operationId, summary },
      }),
    update: write('update'),
    upsert: write('upsert'),
    delete: (operationId: string, summary: string, status: 204 | 205) =>
      op({
        id: `${r.noun}.delete`,
        input: z.object({ ...r.in.params }),
        output: NoContentSchema,
        http: { route: `DELETE ${route}`, status, operationId, summary },
      }),
  };
}

/** The route placeholders of path parameters: `{ spaceId }` → `{spaceId}`. */
export const placeholders = (params: z.ZodRawShape) => `{${Object.keys(params).join('}/{')}}`;
