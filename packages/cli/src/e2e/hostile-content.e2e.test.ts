import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Boot, bootstrap, usePlatform } from './harness.ts';

/**
 * Hostile content: one member's pathological documents never stall the platform. Each write answers a 2xx or a
 * clear 4xx (never a 500) in bounded time, and `/healthz` stays fast while the worst of them are read.
 * The bounds asserted are generous (a busy machine); the figures are printed.
 */

const p = usePlatform();
let acme: Boot;
let target: { spaceId: string; crId: string };

beforeAll(async () => {
  acme = await bootstrap(p, 'Acme', 'ann@acme.io');
  const api = p.client(acme.token);
  const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Hostile' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Attack' })).data;
  target = { spaceId: space.id, crId: cr.id };
}, 60_000);

async function write(markdown: string): Promise<{ status: number; message: string | undefined; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${p.url}/v1/spaces/${target.spaceId}/change-requests/${target.crId}/content`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ changes: [{ operation: 'insert_page', title: 'Attack', document: { markdown } }] }),
  });
  const body = (await res.json()) as { error?: { code: number; message: string } };
  return { status: res.status, message: body.error?.message, ms: performance.now() - started };
}

/** Pathological shapes of markdown, each at a size up to the contract's 1,000,000 characters. */
const shapes = {
  quotes: (n: number) => `${'>'.repeat(n)} a`,
  lists: (n: number) => Array.from({ length: Math.min(n, 2_000) }, (_, i) => `${'  '.repeat(i)}- item`).join('\n'),
  brackets: (n: number) => `${'['.repeat(n)}a${']('.repeat(n)}`,
  closers: (n: number) => `${']('.repeat(n)}x`,
  directives: (n: number) => '{% hint style="info" %}\n'.repeat(n),
  closedDirectives: (n: number) => '{% hint style="info" %}\nx\n{% endhint %}\n'.repeat(n),
  emphasis: (n: number) => '*a _b '.repeat(n),
  table: (n: number) => {
    const cols = Math.min(200, n);
    const row = `|${' x |'.repeat(cols)}\n`;
    return `${row}|${' --- |'.repeat(cols)}\n${row.repeat(Math.max(1, Math.floor(n / cols)))}`;
  },
  links: (n: number) => '[a]: http://x.y\n'.repeat(n) + '[a] '.repeat(n),
  html: (n: number) => '<div>'.repeat(n),
  backticks: (n: number) => '`a``'.repeat(n),
};
type Shape = keyof typeof shapes;

describe('pathological markdown through the API', () => {
  it('answers 2xx or a clear 4xx naming the field, in bounded time, never a 500', async () => {
    const figures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(shapes) as Shape[])),
        fc.integer({ min: 1_000, max: 100_000 }),
        async (shape, n) => {
          const markdown = shapes[shape](n).slice(0, 1_000_000);
          const r = await write(markdown);
          figures.push(`${shape} ${markdown.length} chars: ${r.status} in ${Math.round(r.ms)} ms`);
          expect([200, 400, 413]).toContain(r.status);
          if (r.status !== 200) expect(r.message).toMatch(/changes\.0\.document(\.markdown)?: /);
          // A write waits for a thread the previous one had stopped (its successor loads the parsers): generous.
          expect(r.ms).toBeLessThan(8_000);
        },
      ),
      { numRuns: 12, seed: 29 },
    );
    console.log(`hostile writes:\n  ${figures.join('\n  ')}`);
  }, 120_000);

  it('refuses the reported attacks with a 400 naming the field (deep nesting, bracket runs, 10,000 directives)', async () => {
    for (const markdown of [shapes.quotes(50_000), shapes.brackets(20_000), shapes.directives(10_000)]) {
      const r = await write(markdown);
      expect(r).toMatchObject({
        status: 400,
        message: expect.stringMatching(/^Invalid request: changes\.0\.document\.markdown: /),
      });
    }
  }, 60_000);

  it('stops a document past the parse budget: 400 naming the field within about 2 s on a warm thread', async () => {
    // Warm threads first: a normal page (over the inline threshold) goes through both.
    const normal = 'Some *text* and a [link](https://example.com).\n\n'.repeat(200);
    for (let i = 0; i < 4; i++) expect((await write(normal)).status).toBe(200);
    const r = await write(shapes.closers(300_000));
    console.log(`a 600 kB run of '](' answered ${r.status} in ${Math.round(r.ms)} ms`);
    expect(r).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Invalid request: changes\.0\.document: too complex to read within 1\.5 s/),
    });
    expect(r.ms).toBeLessThan(3_000);
  }, 60_000);

  it('keeps /healthz fast and the event loop free while the worst documents are read', async () => {
    const attacks = [shapes.closers(300_000), shapes.emphasis(100_000), shapes.table(100_000), shapes.closers(200_000)];
    let worst = 0;
    let polls = 0;
    let done = false;
    const poller = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${p.url}/healthz`);
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        worst = Math.max(worst, performance.now() - started);
        polls++;
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const results = await Promise.all(attacks.map((markdown) => write(markdown)));
    done = true;
    await poller;
    const metrics = await (await fetch(`${p.url}/metrics`)).text();
    const lag = Number(/^nodejs_eventloop_lag_seconds (\S+)$/m.exec(metrics)?.[1]);
    console.log(
      `healthz during ${attacks.length} hostile writes: ${polls} polls, worst ${Math.round(worst)} ms; answers ${results.map((r) => `${r.status} in ${Math.round(r.ms)} ms`).join(', ')}; event-loop lag ${lag} s`,
    );
    for (const r of results) expect([200, 400, 413]).toContain(r.status);
    expect(polls).toBeGreaterThan(3);
    expect(worst).toBeLessThan(1_000);
    expect(lag).toBeLessThan(0.5);
  }, 120_000);
});
