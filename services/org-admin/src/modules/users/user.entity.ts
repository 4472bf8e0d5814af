import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const User = defineEntity({
  name: 'User',
  tableName: 'user',
  properties: {
    id: p.string().primary(),
    email: p.string().unique(),
    displayName: p.string(),
    photoURL: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export type IUser = InferEntity<typeof User>;
