import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { Agent, request } from 'undici';
import { DomainError, isPublicAddress } from '@quire/kit';

export interface GitHttpOptions {
  /** Loopback and private addresses allowed (`QUIRE_ALLOW_PRIVATE_FETCH=1`, tests). */
  allowPrivate: boolean;
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
  if (!opts.allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
    throw gitRefused(
      shown,
      `${host} resolves to a loopback or private address; set QUIRE_ALLOW_PRIVATE_FETCH=1 to allow it`,
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
          body: bodyOf(res.body, budget, shown, opts.maxBytes),
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
