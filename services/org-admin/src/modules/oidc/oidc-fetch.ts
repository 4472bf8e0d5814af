import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { isPublicAddress } from '@quire/kit';
import { Agent, fetch as undiciFetch } from 'undici';

/** Largest answer read from an OpenID provider (discovery, JWKS, token, userinfo). */
export const MAX_OIDC_RESPONSE_BYTES = 512 * 1024;
const TIMEOUT_MS = 10_000;

export interface OutboundPolicy {
  QUIRE_ALLOW_PRIVATE_FETCH: boolean;
  QUIRE_OUTBOUND_FETCH: boolean;
}

const allowed = (policy: OutboundPolicy, address: string) =>
  isPublicAddress(address) ? policy.QUIRE_OUTBOUND_FETCH : policy.QUIRE_ALLOW_PRIVATE_FETCH;

/**
 * The fetch openid-client uses (its `customFetch`): the SSRF rules of the kit's guarded fetch for the POSTs
 * the kit's `guardedFetch` does not make (token endpoint). Every address a host resolves to must be public
 * unless QUIRE_ALLOW_PRIVATE_FETCH=1, checked at connect time (the address checked is the one connected to);
 * IP literals are checked before; no redirects are followed; a timeout and a body size cap.
 */
export function guardedOidcFetch(policy: OutboundPolicy) {
  const agent = new Agent({
    connect: {
      lookup: (hostname, _options, callback) =>
        dnsLookup(hostname, { all: true }, (err, addresses: LookupAddress[]) => {
          if (err) return callback(err, [] as never, undefined as never);
          if (!addresses.length || addresses.some((a) => !allowed(policy, a.address)))
            return callback(
              new Error(`refusing to connect to ${hostname}: a private or blocked address`),
              [] as never,
              undefined as never,
            );
          callback(null, addresses as never, undefined as never);
        }),
    },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  return async (
    url: string,
    options: { body?: unknown; headers: Record<string, string>; method: string; signal?: AbortSignal },
  ): Promise<Response> => {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('only http and https are allowed');
    if (parsed.username || parsed.password) throw new Error('credentials in URLs are not allowed');
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !allowed(policy, host))
      throw new Error(`refusing to connect to ${host}: a private or blocked address`);
    const signal = options.signal
      ? AbortSignal.any([options.signal, AbortSignal.timeout(TIMEOUT_MS)])
      : AbortSignal.timeout(TIMEOUT_MS);
    const res = await undiciFetch(url, {
      method: options.method,
      headers: options.headers,
      body: options.body as never,
      redirect: 'manual',
      signal,
      dispatcher: agent,
    });
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (res.body) {
      for await (const chunk of res.body) {
        size += (chunk as Uint8Array).length;
        if (size > MAX_OIDC_RESPONSE_BYTES)
          throw new Error(`the answer of ${parsed.host} is larger than ${MAX_OIDC_RESPONSE_BYTES} bytes`);
        chunks.push(chunk as Uint8Array);
      }
    }
    return new Response(res.status === 204 || res.status === 304 ? null : Buffer.concat(chunks), {
      status: res.status,
      headers: res.headers as unknown as HeadersInit,
    });
  };
}
