// npm run bench:pdf — PDF export of a 10-page and a 500-page space, end to end through the standalone platform
// on a throwaway database: GET /v1/spaces/{s}/pdf, then the download of its link (the 10-page space renders
// while the request waits; the 500-page one in the background job, its link waiting for it). Prints, for
// each: the time to the first byte of the PDF and to its last, the render time the export recorded, the
// PDF's size and sheets, the process's peak RSS; then the same request again (cached). Env: DATABASE_URL
// (admin connection; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_PDF_PAGES (`10,500`),
// BENCH_PDF_OUT (a directory to write each PDF to, `<pages>.pdf`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import pg from 'pg';
import { startStandalone } from '@quire/cli';

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SIZES = (process.env.BENCH_PDF_PAGES ?? '10,500').split(',').map(Number);
const dbName = `quire_bench_pdf_${randomBytes(4).toString('hex')}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-pdf-'));
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database "${dbName}"`);
const db = new pg.Client({ connectionString: dbUrl });

/** A `width` × `height` PNG of stripes (8-bit RGB): a screenshot-sized image for every tenth page. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Array.from({ length: height }, (_, y) => Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, (_, x) => (((x >> 4) + (y >> 4)) % 2 ? [40, 90, 200] : [230, 230, 240])).flat())]));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

const WORDS = 'the quick brown fox jumps over a lazy dog while Ελληνικά και Кириллица words mix with configuration deployment tokens spaces revisions'.split(' ');
const sentence = (seed: number, n = 14) => {
  const words = Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]!);
  return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
};
const paragraph = (seed: number) => Array.from({ length: 6 }, (_, i) => sentence(seed + i)).join(' ');

/** About 2,500 characters of typical documentation: headings, paragraphs with marks and links, a list, code, a table. */
function pageMarkdown(i: number, image: string | undefined): string {
  return [
    `## Overview ${i}`,
    `${paragraph(i)} See **the guide**, *the notes* and \`config.yaml\`, or [the website](https://example.com/${i}).`,
    paragraph(i + 1),
    '- first point of the list\n- second point, with `code`\n- third point',
    `### Example ${i}`,
    '```ts\nexport function handler(event: Event) {\n  const value = event.payload?.value ?? 0;\n  return { status: 200, body: JSON.stringify({ value }) };\n}\n```',
    '| Setting | Default | Meaning |\n| --- | --- | --- |\n| `timeout` | 30 | seconds before giving up |\n| `retries` | 3 | attempts after a failure |',
    ...(image ? [`![Screenshot ${i}](gitbook-file:${image} "Figure ${i}")`] : []),
    `> ${sentence(i + 3)}`,
    paragraph(i + 2),
  ].join('\n\n');
}

const ms = (t0: number) => Math.round(performance.now() - t0);
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

const platform = await startStandalone({ DATABASE_URL: dbUrl, QUIRE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' });
try {
  await db.connect();
  const base = platform.url;
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  const boot = await call('POST', '/v1/admin/bootstrap', platform.adminToken, { title: 'Bench', email: 'bench@quire.local' });
  const token: string = boot.token;
  const org: string = boot.organization.id;
  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, base);

  /** A space of `n` pages (sections of 10), an image on every tenth page. */
  async function spaceWith(n: number) {
    const space = await call('POST', `/v1/orgs/${org}/spaces`, token, { title: `Handbook of ${n} pages` });
    const files = await call('POST', `/v1/spaces/${space.id}/change-requests`, token, {});
    await call('POST', `/v1/spaces/${space.id}/change-requests/${files.id}/content`, token, { changes: [{ operation: 'insert_files', files: [{ name: 'screen.png', contentType: 'image/png', base64: png(640, 360).toString('base64') }] }] });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${files.id}/merge`, token);
    const image = (await call('GET', `/v1/spaces/${space.id}/content/files`, token)).items[0].id as string;
    const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, token, {});
    for (let done = 0; done < n; ) {
      const batch = Math.min(50, n - done);
      await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, token, {
        changes: Array.from({ length: batch }, (_, k) => {
          const i = done + k;
          return i % 10 === 0
            ? { operation: 'insert_page', ref: `s${i}`, title: `Section ${i / 10 + 1}`, document: { markdown: pageMarkdown(i, image) } }
            : { operation: 'insert_page', into: `s${i - (i % 10)}`, title: `Topic ${i}`, document: { markdown: pageMarkdown(i, undefined) } };
        }),
      });
      done += batch;
      // `ref`s live within one batch: sections start every tenth page, batches hold whole sections.
    }
    await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, token);
    return space as { id: string };
  }

  for (const n of SIZES) {
    const space = await spaceWith(n);
    peakRss = process.memoryUsage().rss;
    const t0 = performance.now();
    const { url } = await call('GET', `/v1/spaces/${space.id}/pdf`, token);
    const answered = ms(t0);
    let res: Response;
    let retries = 0;
    for (;;) {
      res = await fetch(local(url));
      if (res.status !== 503) break;
      retries++;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const firstByte = ms(t0);
    const bytes = Buffer.from(await res.arrayBuffer());
    const total = ms(t0);
    if (res.status !== 200 || bytes.subarray(0, 5).toString() !== '%PDF-') throw new Error(`no PDF: ${res.status}`);
    if (process.env.BENCH_PDF_OUT) writeFileSync(join(process.env.BENCH_PDF_OUT, `${n}.pdf`), bytes);
    const row = (await db.query('select pages, size, render_ms from content.pdf_export where space_id = $1', [space.id])).rows[0];
    const t1 = performance.now();
    const again = await call('GET', `/v1/spaces/${space.id}/pdf`, token);
    await (await fetch(local(again.url))).arrayBuffer();
    console.log(
      `${String(n).padStart(4)} pages: API answered in ${answered} ms, PDF downloaded after ${total} ms (first byte ${firstByte} ms, ${retries} retries) | ` +
        `render ${row.render_ms} ms | ${(Number(row.size) / 1024 / 1024).toFixed(2)} MiB, ${row.pages} sheets | peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB | cached: ${ms(t1)} ms`,
    );
  }
} finally {
  clearInterval(sampler);
  await db.end().catch(() => undefined);
  await platform.stop();
  await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
