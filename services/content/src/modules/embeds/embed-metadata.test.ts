import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeUrl } from './embed-metadata.ts';

let server: Server;
let base: string;
let hits = 0;
beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Inside</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('goes through the SSRF guard: a loopback URL is a link card, never fetched, unless private fetches are allowed', async () => {
  const closed = { QUIRE_ALLOW_PRIVATE_FETCH: false, QUIRE_OUTBOUND_FETCH: true };
  expect(await describeUrl(closed, `${base}/x`)).toEqual({
    embed: { type: 'link', title: `${base}/x`, site: '127.0.0.1' },
    read: false,
  });
  expect(await describeUrl(closed, 'http://169.254.169.254/latest/meta-data/')).toMatchObject({ read: false });
  expect(hits).toBe(0);
  const open = { ...closed, QUIRE_ALLOW_PRIVATE_FETCH: true };
  expect(await describeUrl(open, `${base}/x`)).toEqual({
    embed: { type: 'link', title: 'Inside', site: '127.0.0.1' },
    read: true,
  });
  expect(hits).toBe(1);
});
