import { p, type InferEntity } from '@mikro-orm/core';
import { defineTable, idColumn } from '@quire/kit';

export const User = defineTable('User', 'user', {
  ...idColumn(),
  email: p.string().unique(),
  displayName: p.string(),
  photoURL: p.string().nullable(),
  createdAt: p.datetime(),
});
export type IUser = InferEntity<typeof User>;
