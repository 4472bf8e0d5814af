import type { z } from 'zod';
import { teamId, userId } from '../params.ts';

/**
 * Who is given a role on a space, a collection or a site: a user or a team. Their permission operations are the
 * same under `…/permissions/users` and `…/permissions/teams`; `item` is what the lists return for each one.
 */
export interface Grantee<P extends z.ZodRawShape, Item extends z.ZodType> {
  /** `User`, `Team`: in the ids (`listUsers`, `updateUser`) and the GitBook operationIds. */
  name: 'User' | 'Team';
  path: 'users' | 'teams';
  param: P;
  paramName: keyof P & string;
  item: Item;
  whose: string;
}

export const userGrantee = <Item extends z.ZodType>(item: Item): Grantee<{ userId: typeof userId }, Item> => ({
  name: 'User',
  path: 'users',
  param: { userId },
  paramName: 'userId',
  item,
  whose: "a user's",
});

export const teamGrantee = <Item extends z.ZodType>(item: Item): Grantee<{ teamId: typeof teamId }, Item> => ({
  name: 'Team',
  path: 'teams',
  param: { teamId },
  paramName: 'teamId',
  item,
  whose: "a team's",
});
