import { parseArgs } from 'node:util';
import { ROLES, type Role } from '@quire/contracts';
import { createLogger } from '@quire/kit';
import { adminPost, CliError } from './client.ts';
import { migrateAll } from './migrate.ts';
import { startStandalone } from './standalone.ts';

export const USAGE = `Usage: quire <command> [options]

Commands:
  start                                   run the whole platform in one process (gateway on PORT, default 8080)
  bootstrap --org <title> --email <email> [--name <name>]
                                          create an organization with a first admin; prints {organization, user, token}
  users add --org <organizationId> --email <email> --role <role|guest> [--name <name>]
                                          add a user (created if new) to an organization; prints {user, token}
  migrate                                 apply every service's migrations to DATABASE_URL

Environment:
  QUIRE_URL          instance the CLI talks to (default http://127.0.0.1:8080)
  QUIRE_ADMIN_TOKEN  instance admin token (default: read from <QUIRE_DATA_DIR>/admin-token)
  QUIRE_DATA_DIR     data directory of \`quire start\` (default ./.quire)`;

type Out = (line: string) => void;

function need(value: string | undefined, flag: string): string {
  if (!value) throw new CliError(`missing --${flag}\n\n${USAGE}`);
  return value;
}

/** Runs one CLI command; resolves to the exit code (`start` resolves when the platform is up). */
export async function runCli(argv: string[], env: Record<string, string | undefined>, out: Out, err: Out): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { org: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    err(`quire: ${(e as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const { values, positionals } = parsed;
  const [command, sub] = positionals;
  try {
    if (values.help || !command || command === 'help') {
      out(USAGE);
      return command || values.help ? 0 : 1;
    }
    if (command === 'start') {
      const log = createLogger('quire', env.LOG_LEVEL ?? 'info');
      const platform = await startStandalone(env, { log });
      log.info({ url: platform.url }, `Quire is running at ${platform.url} (admin token in ${env.QUIRE_DATA_DIR ?? '.quire'}/admin-token)`);
      const stop = () => {
        platform.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return 0;
    }
    if (command === 'bootstrap') {
      const body = { title: need(values.org, 'org'), email: need(values.email, 'email'), ...(values.name ? { name: values.name } : {}) };
      out(JSON.stringify(await adminPost(env, '/v1/admin/bootstrap', body), null, 2));
      return 0;
    }
    if (command === 'users' && sub === 'add') {
      const roleArg = need(values.role, 'role');
      const role: Role | null = roleArg === 'guest' ? null : (ROLES as readonly string[]).includes(roleArg) ? (roleArg as Role) : invalidRole(roleArg);
      const org = need(values.org, 'org');
      const body = { email: need(values.email, 'email'), role, ...(values.name ? { name: values.name } : {}) };
      out(JSON.stringify(await adminPost(env, `/v1/admin/orgs/${encodeURIComponent(org)}/users`, body), null, 2));
      return 0;
    }
    if (command === 'migrate') {
      if (!env.DATABASE_URL) throw new CliError('quire migrate needs DATABASE_URL');
      const applied = await migrateAll(env.DATABASE_URL);
      out(JSON.stringify({ applied }, null, 2));
      return 0;
    }
    throw new CliError(`unknown command: ${[command, sub].filter(Boolean).join(' ')}\n\n${USAGE}`);
  } catch (e) {
    if (e instanceof CliError) {
      err(`quire: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

function invalidRole(role: string): never {
  throw new CliError(`--role must be one of ${ROLES.join(', ')} or guest, not ${JSON.stringify(role)}`);
}
