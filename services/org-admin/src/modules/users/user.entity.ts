import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';

export const User = defineEntity({
  name: 'User',
  tableName: 'user',
  properties: {
    ...idColumn(),
    email: p.string().unique(),
    displayName: p.string(),
    photoURL: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export type IUser = InferEntity<typeof User>;
