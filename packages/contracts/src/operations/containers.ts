import { z } from 'zod';
import { IdSchema } from '../common.ts';
import type { operationsOf } from '../operation.ts';
import { moveContentInput } from '../schemas/space.ts';
import { placeholders, singletonOps } from './resources.ts';

/**
 * The containers of an organization's content tree, a space and a collection: each is read, updated, deleted, moved in
 * the tree and transferred to another organization by the same operations under its own route (`/spaces/{spaceId}`).
 */
export interface Container<N extends 'spaces' | 'collections', P extends z.ZodRawShape, Item extends z.ZodType> {
  /** The noun of the ids (`spaces.move`) and the route's first segment. */
  noun: N;
  /** `Space`, `Collection`: in GitBook's operationIds (`deleteSpaceById`, `moveCollection`). */
  name: 'Space' | 'Collection';
  param: P;
  item: Item;
}

export function containerOps<N extends 'spaces' | 'collections', P extends z.ZodRawShape, Item extends z.ZodType>(
  op: ReturnType<typeof operationsOf<'content'>>,
  c: Container<N, P, Item>,
) {
  const route = `/${c.noun}/${placeholders(c.param)}` as const;
  const item = singletonOps(op, { noun: c.noun, in: { route, params: c.param }, item: c.item });
  return {
    get: <Q extends z.ZodRawShape = Record<never, never>>(summary: string, query?: Q) =>
      item.get(`get${c.name}ById`, summary, query),
    update: <B extends z.ZodRawShape>(summary: string, body: B) => item.update(`update${c.name}ById`, summary, body),
    delete: (summary: string) => item.delete(`delete${c.name}ById`, summary, 205),
    move: (summary: string) =>
      op({
        id: `${c.noun}.move`,
        input: moveContentInput(c.param, c.name === 'Space' ? 'space' : 'collection'),
        output: c.item,
        http: { route: `POST ${route}/move`, operationId: `move${c.name}`, summary },
      }),
    transfer: (summary: string) =>
      op({
        id: `${c.noun}.transfer`,
        input: z.object({ ...c.param, organization: IdSchema.describe('The unique id of the target organization') }),
        output: c.item,
        http: { route: `POST ${route}/transfer`, operationId: `transfer${c.name}`, summary },
      }),
  };
}
