import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { runCli } from '@quire/cli';
import { freePort } from '@quire/kit';
import { until } from './processes.ts';

/** The processes of the distributed deployment, in start order (the gateway last). */
export const PROCESSES = ['org-admin', 'content', 'sites', 'integrations', 'gateway'] as const;
export type ProcessName = (typeof PROCESSES)[number];

const ROOT = resolve(import.meta.dirname, '../../..');
const ENTRY: Record<ProcessName, string> = {
  'org-admin': 'services/org-admin/src/main.ts',
  content: 'services/content/src/main.ts',
  sites: 'services/sites/src/main.ts',
  integrations: 'services/integrations/src/main.ts',
  gateway: 'gateway/src/main.ts',
};
const URL_VARIABLE: Record<Exclude<ProcessName, 'gateway'>, string> = {
  'org-admin': 'ORG_ADMIN_URL',
  content: 'CONTENT_URL',
  sites: 'SITES_URL',
  integrations: 'INTEGRATIONS_URL',
};

export interface DeploymentOptions {
  databaseUrl: string;
  natsUrl: string;
  /** Where each process writes its log (`<name>.log`, appended across restarts). */
  logDir: string;
}

/**
 * Quire as `docker compose` runs it, without containers: each service and the gateway a process of its own
 * (`node <workspace>/src/main.ts`) on a loopback port, calling each other over HTTP, one PostgreSQL, one NATS.
 */
export class Deployment {
  readonly adminToken = randomBytes(24).toString('hex');
  readonly #secret = randomBytes(24).toString('hex');
  readonly #opts: DeploymentOptions;
  readonly #ports = new Map<ProcessName, number>();
  readonly #children = new Map<ProcessName, ChildProcess>();

  constructor(opts: DeploymentOptions) {
    this.#opts = opts;
  }

  url(name: ProcessName): string {
    return `http://127.0.0.1:${this.#ports.get(name)}`;
  }

  async startAll(): Promise<void> {
    for (const name of PROCESSES) this.#ports.set(name, await freePort());
    await Promise.all(PROCESSES.filter((p) => p !== 'gateway').map((p) => this.start(p)));
    await this.start('gateway');
    if (!(await until(async () => (await fetch(`${this.url('gateway')}/readyz`)).ok, 30_000, 100)))
      throw new Error('the deployment did not get ready');
  }

  /** Spawns `name` and waits until it answers `/healthz` (it has migrated and listens). */
  async start(name: ProcessName, timeoutMs = 120_000): Promise<void> {
    const log = openSync(join(this.#opts.logDir, `${name}.log`), 'a');
    const child = spawn(process.execPath, [join(ROOT, ENTRY[name])], {
      cwd: ROOT,
      env: this.#env(name),
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.#children.set(name, child);
    const up = await until(
      async () =>
        child.exitCode === null &&
        (await fetch(`${this.url(name)}/healthz`, { signal: AbortSignal.timeout(1_000) })).ok,
      timeoutMs,
      50,
    );
    if (!up)
      throw new Error(`${name} did not start (exit ${child.exitCode}); see ${join(this.#opts.logDir, `${name}.log`)}`);
  }

  /** `kill -9`: no shutdown, no goodbye; calls in flight are cut. */
  async kill(name: ProcessName): Promise<void> {
    const child = this.#children.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  /** Bootstraps an organization through the CLI; its admin's token. */
  async bootstrap(): Promise<{ organization: string; token: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const env = { QUIRE_URL: this.url('gateway'), QUIRE_ADMIN_TOKEN: this.adminToken };
    const code = await runCli(
      ['bootstrap', '--org', 'Faults', '--email', 'faults@quire.test'],
      env,
      (l) => out.push(l),
      (l) => err.push(l),
    );
    if (code !== 0) throw new Error(`bootstrap failed: ${err.join('\n')}`);
    const boot = JSON.parse(out.join('\n')) as { organization: { id: string }; token: string };
    return { organization: boot.organization.id, token: boot.token };
  }

  /** SIGTERM to every process, then SIGKILL to any left after 10 s. */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.#children.values()].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  #env(name: ProcessName): NodeJS.ProcessEnv {
    const urls = Object.fromEntries(Object.entries(URL_VARIABLE).map(([p, v]) => [v, this.url(p as ProcessName)]));
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(this.#ports.get(name)),
      DATABASE_URL: this.#opts.databaseUrl,
      NATS_URL: this.#opts.natsUrl,
      QUIRE_INTERNAL_SECRET: this.#secret,
      QUIRE_PUBLIC_URL: this.url('gateway'),
      QUIRE_OUTBOUND_FETCH: '0',
      LOG_LEVEL: process.env.QUIRE_FAULTS_LOG_LEVEL ?? 'warn',
      ...urls,
      ...(name === 'org-admin' ? { QUIRE_ADMIN_TOKEN: this.adminToken } : {}),
      // The load is one token from one address, far past the default limits: outages are measured here, not limits.
      ...(name === 'gateway' ? { QUIRE_RATE_LIMIT_PER_MINUTE: '0', QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE: '0' } : {}),
    };
  }
}
