import { p } from '@mikro-orm/core';

/**
 * Columns most tables share, for an entity's `properties` (`...idColumn(), …, ...timestampColumns()`): each call
 * makes new property builders, so no two entities share one.
 */

/** The text primary key `id`. */
export const idColumn = () => ({ id: p.string().primary() });

/** When the row was created and last updated: `created_at` and `updated_at`, both required. */
export const timestampColumns = () => ({ createdAt: p.datetime(), updatedAt: p.datetime() });
