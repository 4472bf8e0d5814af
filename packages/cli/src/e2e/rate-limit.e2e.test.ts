import { beforeAll, describe, expect, it } from 'vitest';
import { addUser, type Boot, bootstrap, type Seat, usePlatform } from './harness.ts';

/**
 * Rate limits through the gateway (on by default; the harness turns them off for the other tests): per token,
 * per client address before authentication, and failed authentications per address (which throttle the failing
 * tokens only). A flood from one token or one address leaves another member's requests answered normally. Floods
 * come through `inject` with their own client address; the other member calls over HTTP with the official client.
 */

let acme: Boot;
let member: Seat;
let carl: Seat;

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
  carl = await addUser(p, acme.organization.id, 'carl@acme.io', 'read');
}, 60_000);

const inject = (remoteAddress: string, token?: string, url = '/v1/user') =>
  p.platform.gateway.app.inject({
    method: 'GET',
    url,
    remoteAddress,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

/** How many times org-admin was asked who holds a token (`quire_rpc_calls_total` of `auth.resolveToken`). */
async function tokenLookups(): Promise<number> {
  const text = await (await fetch(`${p.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('quire_rpc_calls_total{') && l.includes('procedure="auth.resolveToken"'))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

/** `POST /v1/user/tokens` over HTTP: a new API token of the caller. */
async function newToken(bearer: string, label: string): Promise<{ token: string; info: { id: string } }> {
  const res = await fetch(`${p.url}/v1/user/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ label }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { token: string; info: { id: string } };
}

describe('rate limits', () => {
  it("states the token's limit in IETF and GitBook headers", async () => {
    const before = Math.floor(Date.now() / 1000);
    const first = await inject('10.0.0.1', acme.token);
    // The window starts with the first request, which a loaded machine may answer seconds after `before`.
    const answered = Math.ceil(Date.now() / 1000);
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
    expect(reset).toBeLessThanOrEqual(answered + 61);
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

  it('throttles a flood of forged tokens without a lookup each, not the valid tokens, pages or sign-in of that address', async () => {
    const lookupsBefore = await tokenLookups();
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURES + 10; i++)
      statuses.push((await inject('10.0.0.3', `quire_forged${i}${'x'.repeat(40)}`)).statusCode);
    expect(statuses.slice(0, AUTH_FAILURES)).toEqual(Array(AUTH_FAILURES).fill(401));
    expect(statuses.slice(AUTH_FAILURES)).toEqual(Array(10).fill(429));
    const refused = await inject('10.0.0.3', 'quire_forged-again');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.message).toMatch(
      /^Too many failed authentications from this address; please try again in \d+ seconds$/,
    );
    // Org-admin was never asked about a forged token: the gateway knows which tokens were issued.
    expect(await tokenLookups()).toBe(lookupsBefore);

    // A valid token from the same address is answered, one it holds in no cache as well (issued just now).
    expect((await inject('10.0.0.3', member.token)).statusCode).toBe(200);
    const { token } = await newToken(carl.token, 'fresh');
    const me = await inject('10.0.0.3', token);
    expect([me.statusCode, me.json().id]).toEqual([200, carl.user.id]);
    expect(await tokenLookups()).toBeGreaterThan(lookupsBefore);
    // The published sites and the sign-in page answer that address as usual (a site that does not exist: 404).
    const login = await inject('10.0.0.3', undefined, '/login');
    expect([login.statusCode, login.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect((await inject('10.0.0.3', undefined, '/sites/no-such-site/')).statusCode).toBe(404);
    expect((await inject('10.0.0.4', member.token)).statusCode).toBe(200);
    expect((await p.client(member.token).user.getAuthenticatedUser()).status).toBe(200);
  });

  it('refuses a revoked token (401), and a valid one after it', async () => {
    const { token, info } = await newToken(carl.token, 'short-lived');
    expect((await inject('10.0.0.7', token)).statusCode).toBe(200);
    const revoked = await fetch(`${p.url}/v1/user/tokens/${info.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${carl.token}` },
    });
    expect(revoked.status).toBe(204);
    expect((await inject('10.0.0.7', token)).statusCode).toBe(401);
    expect((await inject('10.0.0.7', token)).statusCode).toBe(401);
    expect((await inject('10.0.0.7', carl.token)).statusCode).toBe(200);
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
