import { beforeAll, describe, expect, it } from 'vitest';
import { addUser, type Boot, bootstrap, type Seat, usePlatform } from './harness.ts';

/**
 * Rate limits through the gateway (on by default; the harness turns them off for the other tests): per token,
 * per client address before authentication, and failed authentications per address. A flood from one token or
 * one address leaves another member's requests answered normally. Floods come through `inject` with their own
 * client address; the other member calls over HTTP with the official client.
 */

let acme: Boot;
let member: Seat;

const PER_TOKEN = 20;
const PER_ADDRESS = 100;
const AUTH_FAILURES = 5;

const p = usePlatform({
  env: {
    QUIRE_RATE_LIMIT_PER_MINUTE: String(PER_TOKEN),
    QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE: String(PER_ADDRESS),
    QUIRE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES),
  },
});

beforeAll(async () => {
  acme = await bootstrap(p, 'Acme', 'ann@acme.io');
  member = await addUser(p, acme.organization.id, 'rita@acme.io', 'read');
}, 60_000);

const inject = (remoteAddress: string, token?: string, url = '/v1/user') =>
  p.platform.gateway.app.inject({
    method: 'GET',
    url,
    remoteAddress,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('rate limits', () => {
  it("states the token's limit in IETF and GitBook headers", async () => {
    const before = Math.floor(Date.now() / 1000);
    const first = await inject('10.0.0.1', acme.token);
    const second = await inject('10.0.0.1', acme.token);
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': String(PER_TOKEN),
      'ratelimit-policy': `"token";q=${PER_TOKEN};w=60`,
    });
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    expect(second.headers.ratelimit).toMatch(/^"token";r=\d+;t=\d+$/);
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(before);
    expect(reset).toBeLessThanOrEqual(before + 61);
  });

  it("answers 429 with Retry-After past a token's limit; another member is answered normally", async () => {
    const statuses: number[] = [];
    let refused;
    for (let i = 0; i < PER_TOKEN + 5; i++) {
      const res = await inject('10.0.0.2', acme.token);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused = res;
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused!.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused!.json()).toEqual({
      error: {
        code: 429,
        message: expect.stringMatching(/^API rate limit exceeded; please try again in \d+ seconds$/),
      },
    });
    // Rita, same organization, her own token: unaffected.
    const me = await p.client(member.token).user.getAuthenticatedUser();
    expect(me.status).toBe(200);
  });

  it('throttles a flood of invalid tokens by address before reading them; other addresses and members go on', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURES + 10; i++)
      statuses.push((await inject('10.0.0.3', `gb_api_forged${i}`)).statusCode);
    expect(statuses.slice(0, AUTH_FAILURES)).toEqual(Array(AUTH_FAILURES).fill(401));
    expect(statuses.slice(AUTH_FAILURES)).toEqual(Array(10).fill(429));
    // Even a valid token from that address waits: the address is refused before any token is read.
    const blocked = await inject('10.0.0.3', member.token);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toMatch(
      /^Too many failed authentications from this address; please try again in \d+ seconds$/,
    );
    expect((await inject('10.0.0.4', member.token)).statusCode).toBe(200);
    expect((await p.client(member.token).user.getAuthenticatedUser()).status).toBe(200);
  });

  it('throttles one address past its limit, anonymous or not, and leaves probes and other addresses alone', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 3; i++)
      statuses.push((await inject('10.0.0.5', undefined, '/v1/openapi.json')).statusCode);
    expect(statuses.slice(0, PER_ADDRESS).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(PER_ADDRESS)).toEqual([429, 429, 429]);
    const refused = await inject('10.0.0.5', member.token);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers).toMatchObject({
      'ratelimit-policy': `"address";q=${PER_ADDRESS};w=60`,
      'x-ratelimit-remaining': '0',
    });
    expect((await inject('10.0.0.5', undefined, '/healthz')).statusCode).toBe(200);
    expect((await inject('10.0.0.6', member.token)).statusCode).toBe(200);
    expect((await p.client(member.token).user.getAuthenticatedUser()).status).toBe(200);
  });
});
