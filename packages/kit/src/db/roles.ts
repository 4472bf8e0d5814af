import { createHash, createHmac } from 'node:crypto';
import pg from 'pg';

/**
 * Each service connects to PostgreSQL as a role of its own that owns its schema and nothing else: a bug in
 * one service cannot read or write another's tables. The role is created (or brought up to date) from the
 * configured connection when that connection may create roles (a superuser or `CREATEROLE`: the migrator's
 * admin connection); a connection that may not is taken as the service's role already and used as given.
 */
export interface ServiceRole {
  /** The role's name: `<database>_<schema>` (shortened with a hash past PostgreSQL's 63 bytes). */
  name: string;
  /** The service's connection string: the admin URL with the role's name and password. */
  url: string;
}

/** The role of `schema` in `database`: roles are per cluster, so the database is part of the name. */
export function serviceRoleName(database: string, schema: string): string {
  const plain = `${database}_${schema}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (plain.length <= 63) return plain;
  const hash = createHash('sha256').update(plain).digest('hex').slice(0, 8);
  return `${plain.slice(0, 63 - schema.length - 10)}_${hash}_${schema}`;
}

/** The role's password: derived from the deployment's internal secret, so every process of it knows it. */
export const serviceRolePassword = (secret: string, role: string): string =>
  createHmac('sha256', secret).update(`postgres-role:${role}`).digest('base64url');

const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;
const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Makes sure the service's role exists, may log in with its password, owns `schema` and every object in it,
 * and that nobody else (PUBLIC) may use the schema. Returns null when `adminUrl` may not create roles.
 */
export async function ensureServiceRole(adminUrl: string, schema: string, secret: string): Promise<ServiceRole | null> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    const [me] = (
      await admin.query<{ may: boolean; db: string }>(
        'select (rolsuper or rolcreaterole) as may, current_database() as db from pg_roles where rolname = current_user',
      )
    ).rows;
    if (!me?.may) return null;
    // Two processes of one service starting together would both `create role`: one at a time (the lock ends with the session).
    await admin.query('select pg_advisory_lock(hashtext($1))', [`quire-role-${schema}`]);
    const name = serviceRoleName(me.db, schema);
    const password = serviceRolePassword(secret, name);
    const exists = (await admin.query('select 1 from pg_roles where rolname = $1', [name])).rowCount;
    const options = `login nosuperuser nocreatedb nocreaterole noinherit password ${literal(password)}`;
    await admin.query(
      exists ? `alter role ${ident(name)} with ${options}` : `create role ${ident(name)} with ${options}`,
    );
    await admin.query(`create schema if not exists ${ident(schema)} authorization ${ident(name)}`);
    await admin.query(`alter schema ${ident(schema)} owner to ${ident(name)}`);
    await admin.query(`revoke all on schema ${ident(schema)} from public`);
    await admin.query(`grant connect, temporary on database ${ident(me.db)} to ${ident(name)}`);
    for (const { stmt } of (await admin.query<{ stmt: string }>(OWNERSHIP_FIXES, [schema, name])).rows)
      await admin.query(stmt);
    const url = new URL(adminUrl);
    url.username = encodeURIComponent(name);
    url.password = encodeURIComponent(password);
    return { name, url: url.toString() };
  } finally {
    await admin.end().catch(() => {});
  }
}

/**
 * `alter … owner to` for every object of the schema the role does not own yet (a deployment from before roles,
 * whose tables the admin connection created). Sequences of identity and serial columns follow their table.
 */
const OWNERSHIP_FIXES = `
  select format('alter %s %I.%I owner to %I',
           case c.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view'
                          when 'f' then 'foreign table' else 'table' end,
           n.nspname, c.relname, $2::text) as stmt
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = $1 and c.relkind in ('r', 'p', 'S', 'v', 'm', 'f')
     and pg_get_userbyid(c.relowner) <> $2
     and not (c.relkind = 'S' and exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i')))
  union all
  select format('alter function %I.%I(%s) owner to %I', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), $2::text)
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
   where n.nspname = $1 and pg_get_userbyid(p.proowner) <> $2
  union all
  select format('alter type %I.%I owner to %I', n.nspname, t.typname, $2::text)
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
   where n.nspname = $1 and t.typtype in ('e', 'd', 'c') and pg_get_userbyid(t.typowner) <> $2
     and not exists (select 1 from pg_class c where c.oid = t.typrelid and c.relkind <> 'c')`;
