// npm run bench:app — the writers' app (app/, docs/app.md): the shell's JavaScript and CSS gzipped (what
// index.html loads before any screen), each screen's chunk, and the first screen's time to interactive in
// Chromium: from navigation start to the organization's content tree shown (its links clickable), cold (a new
// browser context each run: nothing cached) and warm (the same context, assets from its cache); then a space of
// BENCH_TREE_PAGES (1,000) pages made through the API, from navigation start to its page tree shown.
// Env: DATABASE_URL (admin connection, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_RUNS (10).
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { buildThroughApi } from './build.ts';
import { root } from './platforms.ts';
import { startBenchPlatform } from './standalone.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const TREE_PAGES = Number(process.env.BENCH_TREE_PAGES ?? 1000);
const dist = join(root, 'app', 'dist');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function sizes(): void {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const shell = [...html.matchAll(/(?:src|href)="\/_quire\/app\/assets\/([^"]+)"/g)].map((m) => m[1]!);
  const gz = (name: string) => gzipSync(readFileSync(join(dist, 'assets', name)), { level: 9 }).length;
  const shellJs = shell.filter((n) => n.endsWith('.js')).reduce((s, n) => s + gz(n), 0);
  const shellCss = shell.filter((n) => n.endsWith('.css')).reduce((s, n) => s + gz(n), 0);
  console.log(`shell (loaded by index.html): JavaScript ${kb(shellJs)} gzipped (budget 150 KB), CSS ${kb(shellCss)}`);
  for (const name of readdirSync(join(dist, 'assets')).filter((n) => n.endsWith('.js') && !shell.includes(n)))
    console.log(`  chunk ${name}: ${kb(gz(name))} gzipped`);
}

/** A mailbox for the sign-in link. */
async function mailbox() {
  const texts: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        texts.push(
          Buffer.concat(chunks)
            .toString('utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '='),
        );
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, texts, server };
}

/** Signs in through the sign-in pages' forms: the session cookie. */
async function signIn(base: string, email: string, texts: string[]): Promise<string> {
  const page = await fetch(`${base}/login`);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  const csrf = (await page.text()).match(/name="_csrf" value="([^"]+)"/)![1]!;
  const post = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, _csrf: csrf }).toString(),
    });
  await post('/login', { email });
  for (let i = 0; i < 100 && !texts.some((t) => t.includes('/login/verify?token=')); i++)
    await new Promise((r) => setTimeout(r, 50));
  const token = texts.at(-1)!.match(/\/login\/verify\?token=([\w-]+)/)![1]!;
  const res = await post('/login/verify', { token });
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('quire_session='))!
    .split(';')[0]!
    .split('=')[1]!;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, min ${s[0]!.toFixed(0)} ms (${s.length} runs)`;
};

async function interactive(): Promise<void> {
  const mail = await mailbox();
  const p = await startBenchPlatform('app', { QUIRE_SMTP_URL: mail.url, QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE: '0' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    for (let i = 0; i < 20; i++) await p.call('POST', `/v1/orgs/${p.org}/spaces`, p.token, { title: `Space ${i}` });
    const session = await signIn(p.base, 'bench@quire.local', mail.texts);
    const url = `${p.base}/o/${p.org}`;
    const measure = async (page: import('playwright-core').Page) => {
      await page.goto(url);
      await page.locator('.tree a').first().waitFor();
      return page.evaluate(() => performance.now());
    };
    const cold: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      await context.addCookies([{ name: 'quire_session', value: session, url: p.base }]);
      cold.push(await measure(await context.newPage()));
      await context.close();
    }
    const context = await browser.newContext();
    await context.addCookies([{ name: 'quire_session', value: session, url: p.base }]);
    const page = await context.newPage();
    await measure(page);
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) warm.push(await measure(page));
    // Where the last warm run's time went: each request's start and end (ms from navigation start).
    const entries = await page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => ({
        name: new URL(e.name).pathname.replace(/^.*\/assets\//, ''),
        start: Math.round(e.startTime),
        end: Math.round((e as PerformanceResourceTiming).responseEnd),
      })),
    );
    console.log(`last warm run: ${entries.map((e) => `${e.name} ${e.start}-${e.end}`).join(', ')}`);
    console.log(`first screen interactive (organization tree, 20 spaces), cold: ${stats(cold)}`);
    console.log(`first screen interactive (organization tree, 20 spaces), warm: ${stats(warm)}`);

    // A space of 1,000 pages (100 at the top, 900 under them), written through the API: from navigation start to its
    // page tree shown with every top-level page's link (the nested ones fold under their parents).
    const space = await p.call('POST', `/v1/orgs/${p.org}/spaces`, p.token, { title: 'A thousand pages' });
    const content = (i: number) => ({ title: `Page ${i}`, markdown: `Text of page ${i}.\n` });
    await buildThroughApi(p.call, p.token, space.id, content, 0, TREE_PAGES, 0);
    const openTree = async () => {
      await page.goto(`${p.base}/o/${p.org}/s/${space.id}`);
      await page.waitForFunction(
        (n) => document.querySelectorAll('.tree.pages > li a').length >= n,
        Math.min(100, TREE_PAGES),
      );
      return page.evaluate(() => performance.now());
    };
    await openTree();
    const tree: number[] = [];
    for (let i = 0; i < RUNS; i++) tree.push(await openTree());
    const calls = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/v1/'))
        .map(
          (e) =>
            `${new URL(e.name).pathname} ${Math.round(e.startTime)}-${Math.round((e as PerformanceResourceTiming).responseEnd)}`,
        ),
    );
    console.log(`last tree run's API calls: ${calls.join(', ')}`);
    console.log(`a ${TREE_PAGES}-page space's tree shown (warm): ${stats(tree)}`);
  } finally {
    await browser.close();
    await p.stop();
    mail.server.close();
  }
}

sizes();
await interactive();
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
