import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import { DomainError } from '../errors.ts';

/** Global unicast IPv6 (2000::/3): the only IPv6 addresses an outbound fetch may reach without `allowPrivate`. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether an address is a public unicast address. Loopback, private (RFC 1918, unique local), link-local (cloud
 * metadata 169.254.169.254), CGNAT, multicast, unspecified and reserved ranges are not. IPv6 is public only inside
 * 2000::/3, and not in its special ranges (6to4, Teredo, documentation…): IPv4-mapped (`::ffff:a.b.c.d`) and
 * IPv4-compatible (`::7f00:1`, `::a00:1`) addresses, which carry an IPv4 address a stack may connect to, are not.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return false;
  return parsed.range() === 'unicast';
}

export interface GuardedFetchOptions {
  /** Let requests reach loopback and private addresses (`QUIRE_ALLOW_PRIVATE_FETCH=1`). */
  allowPrivate: boolean;
  /** Let requests reach public addresses (`QUIRE_OUTBOUND_FETCH`, on by default; off: only what `allowPrivate` allows). */
  allowPublic?: boolean;
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Largest body read, in bytes. */
  maxBytes?: number;
  maxRedirects?: number;
  /** DNS resolution (tests inject one). */
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
}

export interface GuardedResponse {
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const defaultLookup = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

const refused = (url: string, why: string) => new DomainError('invalid_input', `Refusing to fetch ${url}: ${why}`);

/**
 * Outbound HTTP for user-given URLs (OpenAPI sources, website import, webhooks): http(s) only, the
 * host's every address must be public unless private fetches are allowed, the checked address is the
 * one connected to (no DNS rebinding between check and connect), redirects are followed by hand and
 * checked again, with a timeout and a body size cap.
 */
export async function guardedFetch(input: string, opts: GuardedFetchOptions): Promise<GuardedResponse> {
  const lookup = opts.lookup ?? defaultLookup;
  const maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
  const deadline = AbortSignal.timeout(opts.timeoutMs ?? 15_000);
  let url = input;
  for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
    const target = await checkUrl(url, opts.allowPrivate, opts.allowPublic ?? true, lookup);
    const agent = new Agent({
      connect: {
        // Connect to the address that was checked, whatever DNS says now.
        lookup: (_hostname, _options, callback) =>
          callback(null, [{ address: target.address, family: target.family }] as never, undefined as never),
        servername: isIP(target.hostname) ? undefined : target.hostname,
      },
      headersTimeout: opts.timeoutMs ?? 15_000,
      bodyTimeout: opts.timeoutMs ?? 15_000,
    });
    try {
      const res = await request(url, {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        dispatcher: agent,
        signal: deadline,
        maxRedirections: 0,
      } as never);
      if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
        await res.body.dump();
        url = new URL(String(res.headers.location), url).toString();
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          throw refused(input, `the response is larger than ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      return {
        url,
        status: res.statusCode,
        headers: res.headers as GuardedResponse['headers'],
        body: Buffer.concat(chunks),
      };
    } catch (err) {
      if (err instanceof DomainError) throw err;
      const e = err as { name?: string; code?: string; message?: string };
      if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT')
        throw refused(input, 'it timed out');
      // Never the error's message: it may name the address connected to.
      throw refused(input, e.code ?? 'the request failed');
    } finally {
      void agent.close();
    }
  }
  throw refused(input, 'too many redirects');
}

async function checkUrl(
  url: string,
  allowPrivate: boolean,
  allowPublic: boolean,
  lookup: (h: string) => Promise<LookupAddress[]>,
) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused(url, 'not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw refused(url, 'only http and https are allowed');
  if (parsed.username || parsed.password) throw refused(url, 'credentials in URLs are not allowed');
  if (!allowPublic && !allowPrivate) throw refused(url, 'outbound fetches are turned off (QUIRE_OUTBOUND_FETCH=0)');
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
  else {
    try {
      addresses = await lookup(hostname);
    } catch {
      throw refused(url, `cannot resolve ${hostname}`);
    }
  }
  if (addresses.length === 0) throw refused(url, `cannot resolve ${hostname}`);
  if (!allowPrivate) {
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    // The addresses a name resolves to are the platform's business: never echoed to the caller.
    if (blocked)
      throw refused(
        url,
        `${hostname} resolves to a loopback or private address; set QUIRE_ALLOW_PRIVATE_FETCH=1 to allow it`,
      );
  }
  if (!allowPublic) {
    const open = addresses.find((a) => isPublicAddress(a.address));
    if (open)
      throw refused(
        url,
        `${hostname} is a public address and outbound fetches to the internet are turned off (QUIRE_OUTBOUND_FETCH=0)`,
      );
  }
  return { hostname, address: addresses[0]!.address, family: addresses[0]!.family };
}
