import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { Agent, request } from 'undici';
import { DomainError, isPublicAddress } from '@quire/kit';
import { PackGuard, type PackLimits, type PackWatcher } from './git-pack-guard.ts';

export interface GitHttpOptions {
  /** Loopback and private addresses allowed (`QUIRE_ALLOW_PRIVATE_FETCH=1`, tests). */
  allowPrivate: boolean;
  /** Git hosts allowed even on loopback or private addresses (`QUIRE_GIT_PRIVATE_HOSTS`). */
  privateHosts?: PrivateHosts | undefined;
  /** The ref the operation reads or writes (`refs/heads/main`). */
  ref?: string | undefined;
  /** Limits of the packs fetched (checked from their object headers as they stream in); none: not checked. */
  pack?: PackWatcher | undefined;
  /** Public addresses allowed (`QUIRE_OUTBOUND_FETCH`). */
  allowPublic: boolean;
  /** Most bytes read from the remote, all responses added up (the repository size limit). */
  maxBytes: number;
  timeoutMs: number;
  /** `user:password` sent as basic auth (never part of a URL that could be logged). */
  credentials?: string | undefined;
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
}

const defaultLookup = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (e, a) => (e ? reject(e) : resolve(a))),
  );

/** A refusal naming the repository by its address without credentials. */
export const gitRefused = (url: string, why: string) => new DomainError('invalid_input', `Git remote ${url}: ${why}`);

/**
 * A refusal of what the remote holds (a limit, a hostile or invalid tree) rather than of the request: the same commit
 * would be refused again, so a connection does not fetch it again until its branch moves.
 */
export class GitLimitError extends DomainError {}

/** A refusal of the repository's content (see `GitLimitError`), naming the repository without credentials. */
export const gitLimit = (url: string, why: string) => new GitLimitError('invalid_input', `Git remote ${url}: ${why}`);

/** The address a request goes to once checked by the SSRF rules of the kit's guarded fetch. */
async function checkedTarget(url: URL, opts: GitHttpOptions, shown: string): Promise<LookupAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw gitRefused(shown, 'only http and https remotes are allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await (opts.lookup ?? defaultLookup)(host);
  } catch {
    throw gitRefused(shown, `cannot resolve ${host}`);
  }
  if (!addresses.length) throw gitRefused(shown, `cannot resolve ${host}`);
  const allowed = opts.allowPrivate || opts.privateHosts?.allows(host, addresses) === true;
  if (!allowed && addresses.some((a) => !isPublicAddress(a.address))) {
    throw gitRefused(
      shown,
      `${host} resolves to a loopback or private address; an instance admin allows a Git host there with QUIRE_GIT_PRIVATE_HOSTS (see docs/git-sync.md)`,
    );
  }
  if (!opts.allowPublic && addresses.some((a) => isPublicAddress(a.address))) {
    throw gitRefused(shown, `${host} is a public address and outbound fetches are turned off (QUIRE_OUTBOUND_FETCH=0)`);
  }
  return addresses[0]!;
}

async function* bodyOf(chunks: AsyncIterable<Uint8Array>, budget: { left: number }, shown: string, limit: number) {
  for await (const chunk of chunks) {
    budget.left -= chunk.byteLength;
    if (budget.left < 0) throw gitRefused(shown, `the repository is larger than ${limit} bytes`);
    yield chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
  }
}

/** A pkt-line (four hex digits of length, then the payload). */
const pktLine = (payload: Buffer) =>
  Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0')), payload]);

/**
 * A version-1 `git-upload-pack` ref advertisement with `symref=HEAD:<ref>` added when it names no `HEAD` (the
 * remote's HEAD names a branch that does not exist): isomorphic-git's fetch otherwise stops at "Could not find
 * HEAD." although the ref asked for is there. Any other advertisement is returned as is.
 */
export function withHeadOf(advertisement: Buffer, ref: string): Buffer {
  const lines: (Buffer | null)[] = [];
  for (let at = 0; at < advertisement.length; ) {
    const length = Number.parseInt(advertisement.subarray(at, at + 4).toString(), 16);
    if (!Number.isInteger(length) || (length > 0 && length < 4) || at + Math.max(length, 4) > advertisement.length)
      return advertisement;
    lines.push(length === 0 ? null : advertisement.subarray(at + 4, at + length));
    at += Math.max(length, 4);
  }
  const first = lines.findIndex((l) => l?.includes(0));
  if (first < 0) return advertisement;
  const line = lines[first]!.toString('latin1');
  const named = lines.some((l) => l !== null && /^[0-9a-f]{40} HEAD(\0|\n|$)/.test(l.toString('latin1')));
  if (named || line.includes(' symref=HEAD:') || line.includes('\0symref=HEAD:')) return advertisement;
  const patched = line.endsWith('\n') ? `${line.slice(0, -1)} symref=HEAD:${ref}\n` : `${line} symref=HEAD:${ref}`;
  lines[first] = Buffer.from(patched, 'latin1');
  return Buffer.concat(lines.map((l) => (l === null ? Buffer.from('0000') : pktLine(l))));
}

async function* headed(body: AsyncGenerator<Uint8Array>, ref: string): AsyncGenerator<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  yield withHeadOf(Buffer.concat(parts), ref);
}

/** A `git-upload-pack` response's body read through the fetch's pack guard (other responses as they are). */
const packed = (req: GitHttpRequest, opts: GitHttpOptions, body: AsyncGenerator<Uint8Array>) => {
  const url = new URL(req.url);
  if (opts.pack && req.method === 'POST' && /\/git-upload-pack$/.test(url.pathname)) return opts.pack.watch(body);
  const advertisement = /\/info\/refs$/.test(url.pathname) && url.searchParams.get('service') === 'git-upload-pack';
  return opts.ref && advertisement && (req.method ?? 'GET') === 'GET' ? headed(body, opts.ref) : body;
};

/** The pack guard of one fetch, its refusals naming the remote. */
export const packGuardFor = (shown: string, limits: PackLimits) => new PackGuard(limits, (why) => gitLimit(shown, why));

/** Git hosts an instance admin allows on loopback or private addresses: host names, addresses and CIDR ranges. */
export interface PrivateHosts {
  allows(host: string, addresses: readonly LookupAddress[]): boolean;
  /** The list it was read from (what crosses to the Git thread, which reads it again). */
  entries: readonly string[];
}

/** `QUIRE_GIT_PRIVATE_HOSTS` read: `git.intranet.example, 10.1.2.3, 192.168.0.0/16, ::1`. */
export function privateHostsOf(list: readonly string[]): PrivateHosts {
  const names = new Set<string>();
  const ranges = new BlockList();
  for (const raw of list) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    if (!entry) continue;
    const [ip, bits] = entry.split('/');
    const family = isIP(ip ?? '');
    if (family && bits !== undefined) ranges.addSubnet(ip!, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
    else if (family) ranges.addAddress(ip!, family === 6 ? 'ipv6' : 'ipv4');
    else names.add(entry.replace(/\.$/, ''));
  }
  return {
    entries: [...list],
    allows: (host, addresses) =>
      names.has(host.toLowerCase().replace(/\.$/, '')) ||
      (addresses.length > 0 && addresses.every((a) => ranges.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'))),
  };
}

/**
 * isomorphic-git's HTTP client for user-given remotes: every request (redirects are not followed) goes to an
 * address checked like the kit's guarded fetch (public only unless private fetches are allowed), connected to
 * that very address; responses count against one byte budget; credentials go in an Authorization header.
 */
export function guardedGitHttp(shown: string, opts: GitHttpOptions): HttpClient {
  const budget = { left: opts.maxBytes };
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      const url = new URL(req.url);
      const target = await checkedTarget(url, opts, shown);
      const agent = new Agent({
        connect: {
          lookup: (_h, _o, cb) =>
            cb(null, [{ address: target.address, family: target.family }] as never, undefined as never),
          servername: isIP(url.hostname) ? undefined : url.hostname,
        },
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
      });
      const headers: Record<string, string> = { ...req.headers };
      if (opts.credentials) headers.authorization = `Basic ${Buffer.from(opts.credentials).toString('base64')}`;
      let body: Buffer | undefined;
      if (req.body) {
        const parts: Uint8Array[] = [];
        for await (const part of req.body as AsyncIterable<Uint8Array>) parts.push(part);
        body = Buffer.concat(parts);
      }
      try {
        const res = await request(url, {
          method: (req.method ?? 'GET') as 'GET',
          headers,
          body,
          dispatcher: agent,
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        if (res.statusCode === 401 || res.statusCode === 403) {
          await res.body.dump();
          throw gitRefused(shown, 'the remote refused the credentials (or asked for some)');
        }
        return {
          url: req.url,
          method: req.method,
          statusCode: res.statusCode,
          statusMessage: String(res.statusCode),
          headers: flat,
          body: packed(req, opts, bodyOf(res.body, budget, shown, opts.maxBytes)),
        };
      } catch (err) {
        if (err instanceof DomainError) throw err;
        const e = err as { name?: string; code?: string };
        throw gitRefused(shown, e.name === 'TimeoutError' ? 'it timed out' : (e.code ?? 'the request failed'));
      }
    },
  };
}

/** A remote URL split into what may be shown (no credentials) and the credentials. */
export function splitRemote(raw: string): { url: string; credentials: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new DomainError('invalid_input', 'Invalid request: url: not a URL');
  }
  let user: string;
  let pass: string;
  try {
    user = decodeURIComponent(parsed.username);
    pass = decodeURIComponent(parsed.password);
  } catch {
    throw new DomainError('invalid_input', 'Invalid request: url: malformed credentials');
  }
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), credentials: user || pass ? `${user}:${pass}` : undefined };
}

/**
 * The remote a request names (Git Sync's operations and connection): its URL, http or https, apart from its
 * credentials, and its project directory without leading or trailing slashes; 400 naming the field otherwise.
 */
export function requestRemote(input: { url: string; repoProjectDirectory?: string | undefined }): {
  url: string;
  credentials: string | undefined;
  projectDirectory: string;
} {
  const { url, credentials } = splitRemote(input.url);
  if (!/^https?:$/.test(new URL(url).protocol))
    throw new DomainError('invalid_input', 'Invalid request: url: only http and https Git remotes are supported');
  const projectDirectory = (input.repoProjectDirectory ?? '').replace(/^\/+|\/+$/g, '');
  if (projectDirectory.split('/').includes('..'))
    throw new DomainError('invalid_input', 'Invalid request: repoProjectDirectory: outside the repository');
  return { url, credentials, projectDirectory };
}

/** Every occurrence of the credentials (raw or URL-encoded) taken out of a message. */
export function redact(message: string, credentials: string | undefined): string {
  if (!credentials) return message;
  let out = message;
  for (const secret of credentials.split(':').filter((s) => s.length >= 3)) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out.replace(/\/\/[^/@\s]+@/g, '//***@');
}
