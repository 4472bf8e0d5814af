import { z } from 'zod';
import { IdSchema } from '../common.ts';
import type { operationsOf } from '../operation.ts';
import { moveContentInput } from '../schemas/space.ts';
import { placeholders } from './resources.ts';

/**
 * The containers of an organization's content tree, a space and a collection: each is deleted, moved in the tree and
 * transferred to another organization by the same operations under its own route (`/spaces/{spaceId}`).
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
  return {
    delete: (summary: string) =>
      op({
        id: `${c.noun}.delete`,
        input: z.object({ ...c.param }),
        output: z.void(),
        http: { route: `DELETE ${route}`, status: 205, operationId: `delete${c.name}ById`, summary },
      }),
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
