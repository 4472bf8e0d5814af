import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '@quire/kit';
import { tempDir, until } from './processes.ts';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/** A NATS JetStream server of its own (a free port, a temporary store) that a test may stop and start again. */
export class PrivateNats {
  readonly port: number;
  readonly #dir = tempDir('nats');
  #child: ChildProcess | undefined;

  private constructor(port: number) {
    this.port = port;
  }

  static async create(): Promise<PrivateNats> {
    const nats = new PrivateNats(await freePort());
    await nats.start();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const bin = process.env.QUIRE_FAULTS_NATS_BIN ?? 'nats-server';
    this.#child = spawn(bin, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.#dir.path], {
      stdio: 'ignore',
    });
    if (!(await until(() => listening(this.port), 15_000)))
      throw new Error(`private NATS on ${this.port} did not start`);
  }

  /** Stops the server (SIGTERM; SIGKILL with `hard`): clients lose their connection until `start`. */
  async stop(hard = false): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(hard ? 'SIGKILL' : 'SIGTERM');
    await exited;
    this.#child = undefined;
  }

  async destroy(): Promise<void> {
    await this.stop(true);
    this.#dir.remove();
  }
}
