// Child processes of the bench: started with their output prefixed and its tail kept (so an early exit is
// readable), watched (an unexpected exit fails the bench), stopped gracefully and awaited.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { shebangSettings } from '@quire/cli';

export interface ChildSpec {
  /** Short name, used as the output prefix and by BENCH_PROFILE. */
  name: string;
  /** Node script (path) and its arguments. */
  script: string;
  args?: string[];
  env: Record<string, string>;
  cwd: string;
  /** Polled until it answers `ready(res)` (default: a 2xx). */
  readyUrl: string;
  ready?: (res: Response) => boolean;
  /** Extra Node flags (e.g. --cpu-prof). */
  execArgv?: string[];
  /** Teardown tier: lower tiers are stopped first (the gateway and the standalone before the services). */
  tier: number;
}

const TAIL_LINES = 30;

const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

export class ChildExitError extends Error {}

export class Child {
  readonly spec: ChildSpec;
  readonly proc: ChildProcess;
  readonly tail: string[] = [];
  /** Resolves once the process has exited and its output is drained. */
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stopping = false;

  constructor(spec: ChildSpec) {
    this.spec = spec;
    // detached: its own process group, so a Ctrl-C in the terminal reaches only the bench, which then stops
    // its children in order (gateways first) rather than all of them at once.
    // A script's own `#!/usr/bin/env -S … node …` settings (quire's memory settings), as `npm start` runs it.
    const shebang = shebangSettings(resolve(spec.cwd, spec.script));
    const flags = [...shebang.flags, ...(spec.execArgv ?? [])];
    this.proc = spawn(process.execPath, [...flags, spec.script, ...(spec.args ?? [])], {
      cwd: spec.cwd,
      env: { ...shebang.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    for (const stream of [this.proc.stdout, this.proc.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
        process.stderr.write(`[${spec.name}] ${line}\n`);
      });
    }
    this.closed = new Promise((resolve) => {
      this.proc.once('close', (code, signal) => resolve({ code, signal }));
      this.proc.once('error', (err) => {
        this.tail.push(`spawn error: ${err.message}`);
        resolve({ code: null, signal: null });
      });
    });
  }

  get exited(): boolean {
    return this.proc.exitCode !== null || this.proc.signalCode !== null;
  }

  describeExit(): string {
    const { exitCode, signalCode } = this.proc;
    const how = signalCode ? `was killed by ${signalCode}` : `exited with code ${exitCode}`;
    const tail = this.tail.length
      ? `\n--- last ${this.tail.length} lines of ${this.spec.name}'s output ---\n${this.tail.join('\n')}\n---`
      : ` (no output)`;
    return `${this.spec.name} (${[this.spec.script, ...(this.spec.args ?? [])].join(' ')}, pid ${this.proc.pid}) ${how}${tail}`;
  }

  /** Polls readyUrl; rejects if the process exits first or does not get ready in time. */
  async waitReady(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const isReady = this.spec.ready ?? ((res: Response) => res.ok);
    let last = 'no answer';
    for (;;) {
      if (this.exited) {
        await Promise.race([this.closed, sleep(500)]); // let the last lines of output arrive
        throw new ChildExitError(`${this.describeExit()}\n(before answering ${this.spec.readyUrl})`);
      }
      try {
        const res = await fetch(this.spec.readyUrl, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        if (isReady(res)) return;
        last = `HTTP ${res.status}`;
      } catch (err) {
        last = (err as Error).message;
      }
      if (Date.now() > deadline)
        throw new ChildExitError(
          `${this.spec.name} did not get ready in ${READY_TIMEOUT_MS / 1000} s (${this.spec.readyUrl}: ${last})`,
        );
      await sleep(100);
    }
  }

  /** SIGTERM, wait for the exit (and the end of its output); SIGKILL after the timeout. */
  async stop(): Promise<string | undefined> {
    this.stopping = true;
    if (this.exited) {
      await this.closed;
      return undefined;
    }
    signalGroup(this.proc, 'SIGTERM');
    const timedOut = await Promise.race([this.closed.then(() => false), sleep(STOP_TIMEOUT_MS).then(() => true)]);
    if (timedOut) {
      signalGroup(this.proc, 'SIGKILL');
      await this.closed;
      return `${this.spec.name} did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM: killed`;
    }
    const { code, signal } = await this.closed;
    return code === 0
      ? undefined
      : `${this.spec.name} stopped with ${signal ? `signal ${signal}` : `exit code ${code}`}`;
  }
}

/** Every child of the bench; `failed` rejects when one exits while it should be running. */
export class Fleet {
  readonly children: Child[] = [];
  readonly failed: Promise<never>;
  #fail!: (err: Error) => void;
  #closing = false;

  constructor() {
    this.failed = new Promise<never>((_, reject) => (this.#fail = reject));
    this.failed.catch(() => {}); // observed by whoever races it
  }

  /** Starts a child and waits until it is ready. */
  async start(spec: ChildSpec): Promise<Child> {
    if (this.#closing) throw new Error(`not starting ${spec.name}: the bench is stopping`);
    const child = new Child(spec);
    this.children.push(child);
    child.proc.once('exit', () => {
      if (child.stopping) return;
      // Give the output a moment to drain so the message carries the child's last words.
      void Promise.race([child.closed, sleep(500)]).then(() =>
        this.#fail(new ChildExitError(`${child.describeExit()}\n(while the bench was running)`)),
      );
    });
    await child.waitReady();
    return child;
  }

  /** Stops every child, tier by tier (each tier in parallel), waiting for each to exit; returns the warnings. */
  async stopAll(): Promise<string[]> {
    this.#closing = true;
    for (const child of this.children) child.stopping = true;
    const tiers = [...new Set(this.children.map((c) => c.spec.tier))].sort((a, b) => a - b);
    const warnings: string[] = [];
    for (const tier of tiers) {
      const results = await Promise.all(this.children.filter((c) => c.spec.tier === tier).map((c) => c.stop()));
      warnings.push(...results.filter((w): w is string => !!w));
    }
    return warnings;
  }
}

function signalGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // The child leads its own process group (detached): signal the group, so anything it spawned goes too.
    if (proc.pid) process.kill(-proc.pid, signal);
  } catch {
    try {
      proc.kill(signal);
    } catch {}
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
