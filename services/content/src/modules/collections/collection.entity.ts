import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { DefaultLevel } from '@quire/contracts';

/** A group of spaces (and of other collections): a node of an organization's content tree. */
export const Collection = defineEntity({
  name: 'Collection',
  tableName: 'collection',
  properties: {
    id: p.string().primary(),
    organizationId: p.string(),
    parentId: p.string().nullable(),
    /** Order among the siblings in the parent (spaces and collections together); see modules/tree. */
    order: p.string().fieldName('ord'),
    title: p.string(),
    description: p.string().nullable(),
    defaultLevel: p.string().$type<DefaultLevel>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ICollection = InferEntity<typeof Collection>;
