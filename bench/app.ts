// npm run bench:app — the writers' app (app/, docs/app.md): the shell's JavaScript and CSS gzipped (what
// index.html loads before any screen), each screen's chunk, and the first screen's time to interactive in
// Chromium: from navigation start to the organization's content tree shown (its links clickable), cold (a new
// browser context each run: nothing cached) and warm (the same context, assets from its cache); then a space of
// BENCH_TREE_PAGES (1,000) pages made through the API, from navigation start to its page tree shown; then a page of
// BENCH_BLOCKS (2,000) blocks in the editor: each keystroke from its keydown event to the end of the next frame the
// browser paints (timed in the page), in the autosaved editor (main content) and the live one (a change request: Y.js).
// Env: BENCH_APP (the parts measured: first,tree,keys by default), DATABASE_URL (admin connection, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_RUNS (10),
// BENCH_KEYS (200 keystrokes per editor), BENCH_PROFILE (a folder: a Chromium trace of each editor's typing is written
// there, `keystrokes-{autosaved,live}.json`, for the Performance panel of Chromium's DevTools), BENCH_FRAMES=uncapped
// (Chromium draws a frame as soon as one is asked for, not at the display's 60 Hz: a keystroke's time is then its
// work, without the wait for the display's next refresh, up to 16.7 ms, that any page has).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { API_BUILD_ENV, buildThroughApi } from './build.ts';
import { root } from './platforms.ts';
import { startBenchPlatform } from './standalone.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const TREE_PAGES = Number(process.env.BENCH_TREE_PAGES ?? 1000);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 2000);
const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const PARTS = new Set((process.env.BENCH_APP ?? 'first,tree,keys').split(','));
const UNCAPPED = process.env.BENCH_FRAMES === 'uncapped';
/** With BENCH_FRAMES=uncapped, no frame rate limit and no wait for vsync: frames are drawn when work asks for them. */
const FRAME_FLAGS = UNCAPPED ? ['--disable-frame-rate-limit', '--disable-gpu-vsync'] : [];
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

const stats = (xs: number[], what = 'runs', digits = 0) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(digits);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms, min ${at(0)} ms (${s.length} ${what})`;
};

async function interactive(): Promise<void> {
  const mail = await mailbox();
  // no rate limit, and a parse budget a loaded machine does not exceed on the long page's markdown
  const p = await startBenchPlatform('app', { ...API_BUILD_ENV, QUIRE_SMTP_URL: mail.url });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FRAME_FLAGS });
  try {
    for (let i = 0; i < 20; i++) await p.call('POST', `/v1/orgs/${p.org}/spaces`, p.token, { title: `Space ${i}` });
    const session = await signIn(p.base, 'bench@quire.local', mail.texts);
    const url = `${p.base}/o/${p.org}`;
    const context = await browser.newContext();
    await context.addCookies([{ name: 'quire_session', value: session, url: p.base }]);
    const page = await context.newPage();
    if (PARTS.has('first')) await firstScreen(url, session, page);
    if (PARTS.has('tree')) await bigTree(p, page);
    if (PARTS.has('keys')) await keystrokes(p, page);
  } finally {
    await browser.close();
    await p.stop();
    mail.server.close();
  }

  async function firstScreen(url: string, session: string, page: import('playwright-core').Page) {
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
  }

  async function bigTree(p: Awaited<ReturnType<typeof startBenchPlatform>>, page: import('playwright-core').Page) {
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
  }
}

/**
 * The markdown of a long page: `n` blocks, mostly paragraphs, with headings, list items, quotes, hints and code blocks
 * among them (a list of 3 items, a hint and a code block each count as one block).
 */
function longPage(n: number): string {
  const blocks: string[] = [];
  for (let i = 0; blocks.length < n; i++) {
    const kind = i % 10;
    if (kind === 0) blocks.push(`## Section ${i}`);
    else if (kind === 3) blocks.push(`- item ${i} one\n- item ${i} two\n- item ${i} **three**`);
    else if (kind === 5) blocks.push(`> A quote of block ${i}, with *emphasis* and \`code\`.`);
    else if (kind === 7) blocks.push(`{% hint style="info" %}\nA hint, block ${i}.\n{% endhint %}`);
    else if (kind === 9) blocks.push(`\`\`\`js\nconst block = ${i};\nconsole.log(block);\n\`\`\``);
    else
      blocks.push(
        `Paragraph ${i} of a long page: some **bold**, some *italic*, a [link](https://example.com/${i}) and plain words to wrap a line or two.`,
      );
  }
  return `${blocks.join('\n\n')}\n`;
}

/**
 * Keystrokes in a page of BLOCKS blocks: each from its keydown (the event's time stamp) to the end of the next frame
 * (a message posted from the frame's requestAnimationFrame runs once the frame is painted). First in the autosaved
 * editor (opened from the main content: the first save opens a draft change request), then in the live one (the same
 * page in that change request, once saved).
 */
async function keystrokes(p: Awaited<ReturnType<typeof startBenchPlatform>>, page: import('playwright-core').Page) {
  const space = await p.call('POST', `/v1/orgs/${p.org}/spaces`, p.token, { title: 'A long page' });
  const cr = await p.call('POST', `/v1/spaces/${space.id}/change-requests`, p.token, {});
  await p.call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, p.token, {
    changes: [{ operation: 'insert_page', title: 'Long', document: { markdown: longPage(BLOCKS) } }],
  });
  await p.call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, p.token);
  /** Types KEYS keys (after 20 to warm up) where the caret is: each key's time to the next painted frame. */
  const measure = async (name: string) => {
    await page.evaluate(() => {
      const w = window as unknown as { keyTimes?: number[] };
      if (!w.keyTimes)
        document.addEventListener(
          'keydown',
          (e) => {
            const start = e.timeStamp;
            requestAnimationFrame(() => {
              const painted = new MessageChannel();
              painted.port1.onmessage = () => {
                w.keyTimes!.push(performance.now() - start);
              };
              painted.port2.postMessage(null);
            });
          },
          true,
        );
      w.keyTimes = [];
    });
    // a word, a space, a word…: 20 keys to warm up, then KEYS measured (a key every 50 ms: no autosave in between)
    const text = 'lorem ipsum dolor sit amet '.repeat(Math.ceil((KEYS + 20) / 27)).slice(0, KEYS + 20);
    const trace = process.env.BENCH_PROFILE ? join(process.env.BENCH_PROFILE, `keystrokes-${name}.json`) : undefined;
    // and a CPU profile of the same typing (`.cpuprofile`: which functions the time went to)
    const cdp = trace ? await page.context().newCDPSession(page) : undefined;
    if (trace && cdp) {
      await page
        .context()
        .browser()!
        .startTracing(page, {
          path: trace,
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'],
        });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.keyboard.type(text, { delay: 50 });
    await page.waitForTimeout(200);
    if (trace && cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(trace.replace(/\.json$/, '.cpuprofile'), JSON.stringify(profile));
      await page.context().browser()!.stopTracing();
      console.log(`Chromium trace and CPU profile of the typing: ${trace}, ${trace.replace(/\.json$/, '.cpuprofile')}`);
    }
    const times = await page.evaluate(() => (window as unknown as { keyTimes: number[] }).keyTimes);
    return times.slice(20);
  };
  const type = async (url: string, ready: () => Promise<void>) => {
    await page.goto(url);
    await page.waitForFunction((n) => (document.querySelector('.editor-content')?.childElementCount ?? 0) >= n, BLOCKS);
    await ready();
    // the caret at the end of the page (where the editor puts it on opening; there a keystroke costs the most)
    await page.locator('.editor-content').focus();
    await page.keyboard.press('Control+End');
    // the platform's work after the page was written (search indexing…) is over: the machine's 2 cores are the browser's
    await page.waitForTimeout(3000);
    return measure(url.includes('/~/changes/') ? 'live' : 'autosaved');
  };
  const saved = await type(`${p.base}/o/${p.org}/s/${space.id}/long?edit`, async () => {});
  await page
    .locator('.save-status', { hasText: /^Saved$/ })
    .waitFor({ timeout: 60_000 })
    .catch(async (e: Error) => {
      const shown = await page.locator('.save-status, [role=alert]').allTextContents();
      throw new Error(`the autosaved editor's typing was not saved: ${shown.join(' / ')} (${e.message})`);
    });
  const report = (editor: string, times: number[]) =>
    console.log(
      `keystroke to next painted frame${UNCAPPED ? ' (frames uncapped)' : ''}, ${BLOCKS}-block page, ${editor}: ${stats(times, 'keys', 1)}`,
    );
  report('autosaved editor', saved);
  const number = new URL(page.url()).pathname.match(/\/~\/changes\/(\d+)\//)?.[1];
  if (!number) throw new Error(`the first save opened no change request (at ${page.url()})`);
  const live = await type(`${p.base}/o/${p.org}/s/${space.id}/~/changes/${number}/long?edit`, () =>
    page.locator('.live-status', { hasText: 'Live:' }).waitFor(),
  );
  report('live editor (Y.js)', live);
  // The floor: the same page's blocks (the editor's DOM and CSS, long-document included) in a plain contenteditable
  // that replaces the editor, the same keys typed at its end: what Chromium alone costs (the page is left after this).
  await page.evaluate(() => {
    const editor = document.querySelector('.editor-content')!;
    const plain = document.createElement('div');
    plain.className = 'editor-content document long-document';
    plain.contentEditable = 'true';
    plain.innerHTML = editor.innerHTML;
    editor.replaceWith(plain);
    plain.focus();
  });
  await page.keyboard.press('Control+End');
  await page.waitForTimeout(3000);
  report('plain contenteditable of the same blocks (the floor)', await measure('floor'));
}

sizes();
await interactive();
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
