import { SchemaMigration } from '@quire/kit';

/**
 * A site's basename is its URL (`{QUIRE_PUBLIC_URL}/sites/{basename}`), so it is unique across the instance,
 * not only within an organization: two organizations' sites could otherwise claim one URL. Sites sharing a
 * basename keep it on the oldest; the others get the first free `-2`, `-3`… suffix.
 */
export class SiteBasenameInstanceUniqueMigration extends SchemaMigration {
  override up(): void {
    const site = this.t('site');
    this.addSql(`do $$
      declare
        r record;
        n int;
      begin
        for r in
          select id, basename from (
            select id, basename, row_number() over (partition by basename order by created_at, id) as rank from ${site}
          ) ranked where rank > 1
        loop
          n := 2;
          while exists (select 1 from ${site} where basename = left(r.basename, 100 - length('-' || n)) || '-' || n) loop
            n := n + 1;
          end loop;
          update ${site} set basename = left(r.basename, 100 - length('-' || n)) || '-' || n where id = r.id;
        end loop;
      end $$`);
    this.addSql(`drop index if exists ${this.t('site_org_basename')}`);
    this.addSql(`create unique index site_basename on ${site} (basename)`);
  }
}
