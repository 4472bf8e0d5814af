// The PostgreSQL server the benches run on: each bench creates its own throwaway databases there.
import pg from 'pg';

/** The admin connection (DATABASE_URL) the benches create and drop their databases with. */
export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of the database `name` on the server of `ADMIN_URL`. */
export const databaseUrl = (name: string) => Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();

export interface ThrowawayDatabase {
  name: string;
  url: string;
  /** Drops the database (its connections closed by force) and closes the admin connection. */
  drop(): Promise<void>;
}

/** Creates the database `name` on the server of `ADMIN_URL`, keeping the admin connection open to drop it. */
export async function createThrowawayDatabase(name: string): Promise<ThrowawayDatabase> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  return {
    name,
    url: databaseUrl(name),
    drop: async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
