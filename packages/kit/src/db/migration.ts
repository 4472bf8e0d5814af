import { Migration } from '@mikro-orm/migrations';

/** A migration whose SQL names its tables through `this.t('name')`, qualified with the service schema. */
export abstract class SchemaMigration extends Migration {
  protected t(name: string): string {
    return `"${this.config.get('schema')}"."${name}"`;
  }
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * SQL for the fractional-indexing key (`orderKeyBetween`'s) of the `r`-th item (0-based) of a list keyed from
 * scratch: `a0`…`az`, `b10`…, for a migration that gives order keys to rows ranked by an older order.
 */
export const orderKeyOfRankSql = (r: string) => `case
  when ${r} < 62 then 'a' || substr('${DIGITS}', ${r}::int + 1, 1)
  when ${r} < 3844 then 'b' || substr('${DIGITS}', (${r} / 62)::int + 1, 1) || substr('${DIGITS}', (${r} % 62)::int + 1, 1)
  else 'c' || substr('${DIGITS}', (${r} / 3844)::int + 1, 1) || substr('${DIGITS}', ((${r} / 62) % 62)::int + 1, 1)
    || substr('${DIGITS}', (${r} % 62)::int + 1, 1) end`;
