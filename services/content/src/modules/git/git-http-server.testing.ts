import { deflateSync } from 'node:zlib';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ops, type Actor, type GitSyncState } from '@quire/contracts';
import { eventually, useResource, type TestService } from '@quire/kit/testing';

/** Runs `git` asynchronously (never blocking the event loop the test's own server answers on). */
export function runGit(args: string[], opts: { cwd?: string; input?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    // Never prompts for credentials: the tests put them in the URL.
    const child = spawn('git', ['-c', 'credential.helper=', '-c', 'core.askPass=', ...args], {
      cwd: opts.cwd,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out).toString())
        : reject(new Error(`git ${args.join(' ')}: ${Buffer.concat(err).toString()}`)),
    );
  });
}

/** Test only: commits everything in the working tree `dir` (as a developer, Dev) with `message`. */
export async function commitAll(dir: string, message: string): Promise<void> {
  await runGit(['add', '-A'], { cwd: dir });
  await runGit(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-m', message], { cwd: dir });
}

export interface GitServer {
  /** `http://127.0.0.1:<port>/<name>.git` */
  urlOf(name: string, auth?: { user: string; password: string }): string;
  /** A new bare repository (pushes allowed), its directory. */
  createRepo(name: string): Promise<string>;
  /** Every request the server answered, as `METHOD /path?query` (the test reads which ones were made). */
  requests: string[];
  root: string;
  close(): Promise<void>;
}

/**
 * Debian's `git http-backend` (smart HTTP) behind a small node server on loopback, one CGI process per request;
 * with `auth`, requests without those basic-auth credentials get a 401.
 */
export async function startGitServer(auth?: { user: string; password: string }): Promise<GitServer> {
  const root = await mkdtemp(join(tmpdir(), 'quire-git-server-'));
  const expected = auth ? `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` : null;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: '/usr/bin:/bin',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: auth?.user ?? 'anonymous',
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
      },
    });
    req.pipe(cgi.stdin);
    // The CGI's headers, then its body streamed as it comes (a Git host sends a pack while it builds it).
    let head: Buffer | null = Buffer.alloc(0);
    cgi.stdout.on('data', (d: Buffer) => {
      if (head === null) return void res.write(d);
      head = Buffer.concat([head, d]);
      const split = head.indexOf('\r\n\r\n');
      if (split < 0) return;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, split).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
        if (k.toLowerCase() === 'status') status = Number.parseInt(v, 10);
        else if (k) headers[k] = v;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(split + 4));
      head = null;
    });
    cgi.on('close', () => (head === null ? res.end() : res.writeHead(502).end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    root,
    requests,
    urlOf: (name, creds) =>
      `http://${creds ? `${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@` : ''}127.0.0.1:${port}/${name}.git`,
    async createRepo(name) {
      const dir = join(root, `${name}.git`);
      await runGit(['init', '--bare', '--initial-branch=main', dir]);
      return dir;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * Test only: a git server (`startGitServer(auth)`) for one test file, with `work`, a scratch folder for the test's
 * clones and working trees: ready in `beforeAll`, both gone in `afterAll`.
 */
export function useGitServer(auth: { user: string; password: string }): GitServer & { work: string } {
  return useResource(
    async () => ({ ...(await startGitServer(auth)), work: await mkdtemp(join(tmpdir(), 'quire-git-work-')) }),
    async ({ close, work }) => {
      await close();
      await rm(work, { recursive: true, force: true });
    },
  );
}

/**
 * Test only: the space exported by `actor` (with `commitMessage`) to a new repository `repo` of `server`, the export
 * waited for (`tries` as `gitOperationSettled`), and the repository cloned into `clone` under the server's work
 * directory: the space's Git info after the export and the clone's directory.
 */
export async function exportAndClone(
  t: Pick<TestService, 'call'>,
  server: GitServer & { work: string },
  auth: { user: string; password: string },
  to: { spaceId: string; actor: Actor; repo: string; commitMessage: string; clone: string; tries?: number },
) {
  await server.createRepo(to.repo);
  const url = server.urlOf(to.repo, auth);
  await t.call(
    ops.exportToGitRepository,
    { spaceId: to.spaceId, url, ref: 'refs/heads/main', commitMessage: to.commitMessage },
    to.actor,
  );
  const info = await gitOperationSettled(t, to.spaceId, to.actor, to.tries);
  const clone = join(server.work, to.clone);
  await runGit(['clone', '-q', url, clone]);
  return { info, clone };
}

/** Test only: a PNG of width × height (signature, IHDR, one IDAT of rows filled with `fill`, IEND). */
export function png(width: number, height: number, fill = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height, fill);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * Test only: the space's Git info once it satisfies `ok` (the job and the event consumer run the sync), asked as
 * `actor` for `ms` at most; else a failure naming `what` and the last info.
 */
export async function gitInfoUntil(
  t: Pick<TestService, 'call'>,
  spaceId: string,
  actor: Actor,
  ms: number,
  ok: (info: GitSyncState) => boolean,
  what: string,
): Promise<GitSyncState> {
  let last: GitSyncState | undefined;
  return eventually(
    async () => {
      last = await t.call(ops.getSpaceGitInfo, { spaceId }, actor);
      return ok(last) ? last : undefined;
    },
    ms,
    what,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; the info: ${JSON.stringify(last)}`);
  });
}

/** Test only: the space's Git info once its operation has ended (asked every 100 ms, at most `tries` times). */
export async function gitOperationSettled(t: Pick<TestService, 'call'>, spaceId: string, actor: Actor, tries = 1_800) {
  for (let i = 0; i < tries; i++) {
    const info = await t.call(ops.getSpaceGitInfo, { spaceId }, actor);
    if (info.operation && info.operation.state !== 'running') return info;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the Git operation did not end');
}
