import { parseArgs } from 'node:util';
import { ROLES, type Role } from '@quire/contracts';
import { BaseEnvShape, createLogger, loadConfig, logFormatSetting } from '@quire/kit';
import { adminPost, CliError } from './client.ts';
import { migrateAll } from './migrate.ts';
import { adminTokenFile, defaultDataDir } from './data-dir.ts';
import { acquireInstanceLock } from './instance-lock.ts';
import { nextStepLine, recordInstanceUrl } from './instance-url.ts';
import { type Standalone, startStandalone } from './standalone.ts';

export const USAGE = `Usage: quire <command> [options]

Commands:
  start                                   run the whole platform in one process (gateway on PORT, default 8080)
  bootstrap --org <title> --email <email> [--name <name>]
                                          create an organization with a first admin; prints {organization, user, token}
  users add --org <organizationId> --email <email> --role <role|guest> [--name <name>]
                                          add a user (created if new) to an organization; prints {user, token}
  migrate                                 apply every service's migrations to DATABASE_URL

Environment:
  QUIRE_URL          instance the CLI talks to (default: the URL \`quire start\` recorded in
                     <QUIRE_DATA_DIR>/quire.url while it runs, else http://127.0.0.1:8080)
  QUIRE_ADMIN_TOKEN  instance admin token (default: read from <QUIRE_DATA_DIR>/admin-token)
  QUIRE_DATA_DIR     data directory of \`quire start\` (default ./.quire)

\`quire <command> --help\` describes one command.`;

/** `quire <command> --help`: each command's own usage. */
export const COMMAND_USAGE: Record<string, string> = {
  start: `Usage: quire start

Runs the whole platform in one process: the gateway and the four services, calling each other directly.
With no DATABASE_URL it runs an embedded PostgreSQL 18 in <QUIRE_DATA_DIR>/pg; with no NATS_URL the services
share an in-process bus. At first start it writes the instance admin token to <QUIRE_DATA_DIR>/admin-token; while it runs,
<QUIRE_DATA_DIR>/quire.url holds its URL (what \`quire bootstrap\` and \`quire users add\` talk to). Its last
start-up line says what to do next: the \`quire bootstrap\` command, or the sign-in URL.
One Quire at a time per data directory. Stop it with Ctrl-C (SIGINT) or SIGTERM.

Environment:
  PORT               gateway port (default 8080)
  HOST               address it listens on (default 127.0.0.1)
  QUIRE_DATA_DIR     data directory: secrets and the embedded PostgreSQL (default ./.quire)
  DATABASE_URL       an external PostgreSQL instead of the embedded one
  NATS_URL           NATS JetStream instead of the in-process bus
  LOG_LEVEL          pino log level (default info)
  QUIRE_LOG_FORMAT   pretty (one line per event) or json; default pretty on a terminal, json otherwise
Every variable: docs/configuration.md.`,
  bootstrap: `Usage: quire bootstrap --org <title> --email <email> [--name <name>]

Creates an organization with a first admin user on the running instance, and a token for that user.
Prints {"organization", "user", "token"} as JSON.

Options:
  --org <title>      title of the new organization (required)
  --email <email>    email of its first admin (required; the user is created when new)
  --name <name>      display name of that user

Environment:
  QUIRE_URL          instance to talk to (default: <QUIRE_DATA_DIR>/quire.url, else http://127.0.0.1:8080)
  QUIRE_ADMIN_TOKEN  instance admin token (default: read from <QUIRE_DATA_DIR>/admin-token)
  QUIRE_DATA_DIR     data directory of \`quire start\` (default ./.quire)`,
  users: `Usage: quire users add --org <organizationId> --email <email> --role <role|guest> [--name <name>]

Adds a user (created when new) to an organization of the running instance, and issues a token for them.
Prints {"user", "token"} as JSON. The instance admin adds an existing account directly (it can issue that
account a token anyway); an organization admin's invitation (POST /v1/orgs/{o}/invites) waits for the
account's owner to accept it (docs/sign-in.md).

Options:
  --org <organizationId>  the organization's id (from \`quire bootstrap\` or GET /v1/orgs)
  --email <email>         the user's email (required)
  --role <role>           ${ROLES.join(', ')}, or guest (required)
  --name <name>           display name of a new user

Environment:
  QUIRE_URL          instance to talk to (default: <QUIRE_DATA_DIR>/quire.url, else http://127.0.0.1:8080)
  QUIRE_ADMIN_TOKEN  instance admin token (default: read from <QUIRE_DATA_DIR>/admin-token)
  QUIRE_DATA_DIR     data directory of \`quire start\` (default ./.quire)`,
  migrate: `Usage: quire migrate

Applies every service's migrations (org-admin, content, sites, integrations) to DATABASE_URL, each in its own
schema, and prints {"applied": {service: [migration names]}}. Services also migrate when they start; this is for
deployments that migrate before rolling out.

Environment:
  DATABASE_URL       the PostgreSQL to migrate (required)`,
};
COMMAND_USAGE.help = USAGE;

type Out = (line: string) => void;
type Env = Record<string, string | undefined>;

/** What `quire start` needs to stop on a signal: tested with fakes. */
export interface StopTarget {
  stop(): Promise<void>;
}
export interface StopLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Stops the platform on SIGINT or SIGTERM (once), logging the signal and the end, then exits: 0 once stopped,
 * 1 when stopping failed.
 */
export function stopOnSignals(
  platform: StopTarget,
  log: StopLog,
  after: () => void = () => {},
  exit: (code: number) => void = (code) => process.exit(code),
  signals: NodeJS.EventEmitter = process,
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    log.info({ signal }, `Quire is stopping (${signal})`);
    platform.stop().then(
      () => {
        after();
        log.info({ ms: Date.now() - started }, 'Quire stopped');
        exit(0);
      },
      (err: unknown) => {
        after();
        log.error({ err }, 'Quire did not stop cleanly');
        exit(1);
      },
    );
  };
  signals.once('SIGINT', () => stop('SIGINT'));
  signals.once('SIGTERM', () => stop('SIGTERM'));
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new CliError(`missing --${flag}\n\n${USAGE}`);
  return value;
}

/** Runs one CLI command; resolves to the exit code (`start` resolves when the platform is up). */
export async function runCli(argv: string[], env: Env, out: Out, err: Out): Promise<number> {
  let parsed: CliArgs;
  try {
    parsed = parseCliArgs(argv);
  } catch (e) {
    err(`quire: ${(e as Error).message}\n\n${USAGE}`);
    return 1;
  }
  try {
    return await runCommand(parsed, env, out);
  } catch (e) {
    if (e instanceof CliError) {
      err(`quire: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

/** The options the commands take (strict: an unknown option, or a value where none goes, is an error). */
function parseCliArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      org: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

type CliArgs = ReturnType<typeof parseCliArgs>;
type CliValues = CliArgs['values'];

/** The usage asked for, or the command named; a `CliError` for an unknown one. */
async function runCommand({ values, positionals }: CliArgs, env: Env, out: Out): Promise<number> {
  const [command, sub] = positionals;
  if (!command || (command === 'help' && !sub) || (values.help && !(command in COMMAND_USAGE))) {
    out(USAGE);
    return command || values.help ? 0 : 1;
  }
  if (values.help || command === 'help') {
    // `quire bootstrap --help`, `quire help bootstrap`.
    const topic = command === 'help' ? sub! : command;
    if (!(topic in COMMAND_USAGE)) throw new CliError(`unknown command: ${topic}\n\n${USAGE}`);
    out(COMMAND_USAGE[topic]!);
    return 0;
  }
  if (command === 'start') return start(env, out);
  if (command === 'bootstrap') return bootstrap(env, values, out);
  if (command === 'users' && sub === 'add') return addUser(env, values, out);
  if (command === 'migrate') return migrate(env, out);
  throw new CliError(`unknown command: ${[command, sub].filter(Boolean).join(' ')}\n\n${USAGE}`);
}

/** `quire start`: the platform in this process, holding the data directory's lock until it stops. */
async function start(env: Env, out: Out): Promise<number> {
  const { LOG_LEVEL, QUIRE_LOG_FORMAT } = loadConfig(
    { LOG_LEVEL: BaseEnvShape.LOG_LEVEL, QUIRE_LOG_FORMAT: logFormatSetting },
    env,
  );
  const log = createLogger('quire', LOG_LEVEL, QUIRE_LOG_FORMAT);
  const dataDir = defaultDataDir(env);
  const lock = acquireInstanceLock(dataDir);
  let platform: Standalone;
  try {
    platform = await startStandalone(env, { log });
  } catch (e) {
    lock.release();
    throw e;
  }
  const recorded = recordInstanceUrl(dataDir, platform.url);
  log.info(
    { url: platform.url, pid: process.pid },
    `Quire is running at ${platform.url} (admin token in ${adminTokenFile(dataDir)})`,
  );
  stopOnSignals(platform, log, () => {
    recorded.remove();
    lock.release();
  });
  // Should the check fail, the sign-in page is still the way in.
  const hasOrganizations = await platform.hasOrganizations().catch((err: unknown) => {
    log.warn({ err }, 'Could not tell whether the instance has an organization');
    return true;
  });
  out(nextStepLine({ hasOrganizations, publicUrl: platform.publicUrl, env }));
  return 0;
}

/** `quire bootstrap`. */
async function bootstrap(env: Env, values: CliValues, out: Out): Promise<number> {
  const body = {
    title: need(values.org, 'org'),
    email: need(values.email, 'email'),
    ...(values.name ? { name: values.name } : {}),
  };
  out(JSON.stringify(await adminPost(env, '/v1/admin/bootstrap', body), null, 2));
  return 0;
}

/** `quire users add`. */
async function addUser(env: Env, values: CliValues, out: Out): Promise<number> {
  const roleArg = need(values.role, 'role');
  const role: Role | null =
    roleArg === 'guest'
      ? null
      : (ROLES as readonly string[]).includes(roleArg)
        ? (roleArg as Role)
        : invalidRole(roleArg);
  const org = need(values.org, 'org');
  const body = { email: need(values.email, 'email'), role, ...(values.name ? { name: values.name } : {}) };
  out(JSON.stringify(await adminPost(env, `/v1/admin/orgs/${encodeURIComponent(org)}/users`, body), null, 2));
  return 0;
}

/** `quire migrate`. */
async function migrate(env: Env, out: Out): Promise<number> {
  if (!env.DATABASE_URL) throw new CliError('quire migrate needs DATABASE_URL');
  const applied = await migrateAll(env.DATABASE_URL);
  out(JSON.stringify({ applied }, null, 2));
  return 0;
}

function invalidRole(role: string): never {
  throw new CliError(`--role must be one of ${ROLES.join(', ')} or guest, not ${JSON.stringify(role)}`);
}
