import { defineEntity, p } from '@mikro-orm/core';

/**
 * An entity named `name` over the table `tableName` of the service's schema, with its columns: the ORM's
 * `defineEntity({ name, tableName, properties })`, which is all every entity of Quire declares.
 */
export function defineTable<
  const TName extends string,
  const TTableName extends string,
  const TProperties extends Record<string, unknown>,
>(name: TName, tableName: TTableName, properties: TProperties) {
  return defineEntity({ name, tableName, properties });
}

/**
 * Columns most tables share, for an entity's `properties` (`...idColumn(), …, ...timestampColumns()`): each call
 * makes new property builders, so no two entities share one.
 */

/** The text primary key `id`. */
export const idColumn = () => ({ id: p.string().primary() });

/** When the row was created and last updated: `created_at` and `updated_at`, both required. */
export const timestampColumns = () => ({ createdAt: p.datetime(), updatedAt: p.datetime() });
