import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { DefaultLevel } from '@quire/contracts';

/**
 * Where a node of an organization's content tree (a space or a collection) stands: its organization, its parent
 * collection (none at the top) and its order among the siblings in the parent (spaces and collections together;
 * see modules/tree).
 */
export const treeNodeColumns = () => ({
  organizationId: p.string(),
  parentId: p.string().nullable(),
  order: p.string().fieldName('ord'),
});

/** A group of spaces (and of other collections): a node of an organization's content tree. */
export const Collection = defineEntity({
  name: 'Collection',
  tableName: 'collection',
  properties: {
    ...idColumn(),
    ...treeNodeColumns(),
    title: p.string(),
    description: p.string().nullable(),
    defaultLevel: p.string().$type<DefaultLevel>().nullable(),
    ...timestampColumns(),
  },
});
export type ICollection = InferEntity<typeof Collection>;
