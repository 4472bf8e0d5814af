import { SchemaMigration } from '@quire/kit';

/**
 * Members list, search and sort by the user's name and e-mail: both are copied onto the membership row
 * (kept in sync by triggers on both tables, whatever code path writes them), with a lower-cased sort key.
 * Teams and team members; a team member is always a member of the team's organization (composite keys).
 */
export class MembersAndTeamsMigration extends SchemaMigration {
  override up(): void {
    const membership = this.t('membership');
    const user = this.t('user');
    this.addSql(`alter table ${membership}
      add column user_name text not null default '',
      add column user_email text not null default '',
      add column sort_name text generated always as (lower(user_name)) stored`);
    this.addSql(
      `update ${membership} m set user_name = u.display_name, user_email = u.email from ${user} u where u.id = m.user_id`,
    );
    this.addSql(`create function ${this.t('membership_copy_user')}() returns trigger language plpgsql as $fn$
      begin
        select u.display_name, u.email into new.user_name, new.user_email from ${user} u where u.id = new.user_id;
        new.user_name := coalesce(new.user_name, '');
        new.user_email := coalesce(new.user_email, '');
        return new;
      end $fn$`);
    this.addSql(`create trigger membership_copy_user before insert or update of user_id on ${membership}
      for each row execute function ${this.t('membership_copy_user')}()`);
    this.addSql(`create function ${this.t('user_copy_to_memberships')}() returns trigger language plpgsql as $fn$
      begin
        update ${membership} set user_name = new.display_name, user_email = new.email
          where user_id = new.id and (user_name is distinct from new.display_name or user_email is distinct from new.email);
        return null;
      end $fn$`);
    this.addSql(`create trigger user_copy_to_memberships after insert or update of display_name, email on ${user}
      for each row execute function ${this.t('user_copy_to_memberships')}()`);
    this.addSql(`create index membership_joined on ${membership} (organization_id, joined_at, user_id)`);
    this.addSql(
      `create index membership_last_seen on ${membership} (organization_id, last_seen_at, user_id) where last_seen_at is not null`,
    );
    this.addSql(`create index membership_name on ${membership} (organization_id, sort_name, user_id)`);

    this.addSql(`create table ${this.t('team')} (
      id text primary key,
      organization_id text not null references ${this.t('organization')} (id) on delete cascade deferrable initially deferred,
      title text not null,
      created_at timestamptz not null,
      unique (id, organization_id))`);
    this.addSql(`create index team_organization on ${this.t('team')} (organization_id, created_at, id)`);
    this.addSql(`create table ${this.t('team_member')} (
      team_id text not null,
      organization_id text not null,
      user_id text not null,
      role text not null check (role in ('owner','member')),
      added_at timestamptz not null,
      primary key (team_id, user_id),
      foreign key (team_id, organization_id) references ${this.t('team')} (id, organization_id) on delete cascade deferrable initially deferred,
      foreign key (organization_id, user_id) references ${membership} (organization_id, user_id) on delete cascade deferrable initially deferred)`);
    this.addSql(`create index team_member_list on ${this.t('team_member')} (team_id, added_at, user_id)`);
    this.addSql(
      `create index team_member_user on ${this.t('team_member')} (organization_id, user_id, added_at, team_id)`,
    );
  }
}
