import { Migration } from '@mikro-orm/migrations';

/** A migration whose SQL names its tables through `this.t('name')`, qualified with the service schema. */
export abstract class SchemaMigration extends Migration {
  protected t(name: string): string {
    return `"${this.config.get('schema')}"."${name}"`;
  }
}
