import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../testing/index.ts';
import { guardedFetch, isPublicAddress } from './guarded-fetch.ts';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('accepts public %s', (a) =>
    expect(isPublicAddress(a)).toBe(true),
  );
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
    // IPv4-compatible and -mapped IPv6 carrying loopback or private IPv4, 6to4 and Teredo, NAT64, documentation.
    '::7f00:1',
    '::a00:1',
    '::127.0.0.1',
    '::ffff:8.8.8.8',
    '2002:7f00:1::1',
    '2001:0:4136:e378::1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    '4000::1',
  ])('refuses %s', (a) => expect(isPublicAddress(a)).toBe(false));
});

describe('guardedFetch', () => {
  let server: Server;
  let base: string;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/to-file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (req.url === '/redirect') return res.writeHead(301, { location: '/doc' }).end();
      if (req.url === '/big') return res.end(Buffer.alloc(2048, 'x'));
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
      res.setHeader('content-type', 'application/json');
      res.end('{"openapi":"3.1.0"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('refuses loopback, by IP and by name, without connecting', async () => {
    const before = hits;
    const port = new URL(base).port;
    expect((await failureOf(guardedFetch(`${base}/doc`, { allowPrivate: false }))).message).toMatch(
      /127\.0\.0\.1 resolves to a loopback or private address; set QUIRE_ALLOW_PRIVATE_FETCH=1/,
    );
    expect((await failureOf(guardedFetch(`http://localhost:${port}/doc`, { allowPrivate: false }))).message).toMatch(
      /private address/,
    );
    expect(
      (await failureOf(guardedFetch(`http://[::ffff:127.0.0.1]:${port}/doc`, { allowPrivate: false }))).message,
    ).toMatch(/private address/);
    expect(hits).toBe(before);
  });

  it('refuses a public-looking name that resolves to a private address', async () => {
    const lookup = async () => [{ address: '10.0.0.5', family: 4 }];
    const err = await failureOf(guardedFetch('http://docs.example.com/openapi.json', { allowPrivate: false, lookup }));
    expect(err.reason).toBe('invalid_input');
    expect(err.message).toBe(
      'Refusing to fetch http://docs.example.com/openapi.json: docs.example.com resolves to a loopback or private address; set QUIRE_ALLOW_PRIVATE_FETCH=1 to allow it',
    );
    expect(err.message).not.toContain('10.0.0.5');
  });

  it('connects to the address it checked, not to what DNS says later', async () => {
    let calls = 0;
    const port = new URL(base).port;
    // First answer (checked): loopback, allowed here; a later answer would be elsewhere but is never asked.
    const lookup = async () =>
      calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '192.0.2.1', family: 4 }];
    const res = await guardedFetch(`http://api.internal.test:${port}/doc`, { allowPrivate: true, lookup });
    expect(res.body.toString()).toBe('{"openapi":"3.1.0"}');
    expect(calls).toBe(1);
  });

  it('refuses IPv6 outside 2000::/3 as a URL host, without echoing what a name resolves to', async () => {
    for (const host of ['[::7f00:1]', '[::a00:1]', '[::ffff:7f00:1]']) {
      expect((await failureOf(guardedFetch(`http://${host}:9/x`, { allowPrivate: false }))).message).toMatch(
        /resolves to a loopback or private address; set/,
      );
    }
    const lookup = async () => [{ address: '::7f00:1', family: 6 }];
    const err = await failureOf(guardedFetch('http://sneaky.example.com/', { allowPrivate: false, lookup }));
    expect(err.message).toMatch(/sneaky\.example\.com resolves to a loopback or private address; set/);
    expect(err.message).not.toMatch(/7f00/);
  });

  it('refuses non-http schemes and credentials', async () => {
    expect((await failureOf(guardedFetch('file:///etc/passwd', { allowPrivate: true }))).message).toMatch(
      /only http and https/,
    );
    expect((await failureOf(guardedFetch('http://user:pw@example.com/', { allowPrivate: true }))).message).toMatch(
      /credentials/,
    );
  });

  it('with QUIRE_ALLOW_PRIVATE_FETCH=1 fetches, follows redirects and checks each hop', async () => {
    const ok = await guardedFetch(`${base}/redirect`, { allowPrivate: true });
    expect(ok).toMatchObject({ status: 200, url: `${base}/doc` });
    expect(JSON.parse(ok.body.toString())).toEqual({ openapi: '3.1.0' });
    expect((await failureOf(guardedFetch(`${base}/to-file`, { allowPrivate: true }))).message).toMatch(
      /only http and https/,
    );
    expect((await failureOf(guardedFetch(`${base}/loop`, { allowPrivate: true, maxRedirects: 3 }))).message).toMatch(
      /too many redirects/,
    );
  });

  it('caps the body size and the time', async () => {
    expect((await failureOf(guardedFetch(`${base}/big`, { allowPrivate: true, maxBytes: 1024 }))).message).toMatch(
      /larger than 1024 bytes/,
    );
    expect((await failureOf(guardedFetch(`${base}/slow`, { allowPrivate: true, timeoutMs: 200 }))).message).toMatch(
      /timed out/,
    );
  });

  it('refuses public addresses when outbound fetches are turned off, and everything when private ones are refused too', async () => {
    const publicLookup = async () => [{ address: '93.184.216.34', family: 4 }];
    expect(
      (
        await failureOf(
          guardedFetch('http://example.org/x', { allowPrivate: false, allowPublic: false, lookup: publicLookup }),
        )
      ).message,
    ).toMatch(/turned off \(QUIRE_OUTBOUND_FETCH=0\)/);
    expect(
      (
        await failureOf(
          guardedFetch('http://example.org/x', { allowPrivate: true, allowPublic: false, lookup: publicLookup }),
        )
      ).message,
    ).toMatch(/public address and outbound fetches to the internet are turned off/);
  });
});
