// npm run bench:pdf — PDF export of a 10-page and a 500-page space, end to end through the standalone platform
// on a throwaway database: GET /v1/spaces/{s}/pdf, then the download of its link (the 10-page space renders
// while the request waits; the 500-page one in the background job, its link waiting for it). Prints, for
// each: the time to the first byte of the PDF and to its last, the render time the export recorded, the
// PDF's size and sheets, the process's peak RSS; then the same request again (cached). Env: DATABASE_URL
// (admin connection; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_PDF_PAGES (`10,500`),
// BENCH_PDF_OUT (a directory to write each PDF to, `<pages>.pdf`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { png } from '@quire/kit/testing';
import { startBenchPlatform } from './standalone.ts';

const SIZES = (process.env.BENCH_PDF_PAGES ?? '10,500').split(',').map(Number);

/** A screenshot-sized image of stripes (every tenth page shows it). */
const screenshot = () => png(640, 360, (x, y) => (((x >> 4) + (y >> 4)) % 2 ? [40, 90, 200] : [230, 230, 240]));

const WORDS =
  'the quick brown fox jumps over a lazy dog while Ελληνικά και Кириллица words mix with configuration deployment tokens spaces revisions'.split(
    ' ',
  );
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

const platform = await startBenchPlatform('pdf');
try {
  const { base, db, token, org, call } = platform;
  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, base);

  /** A space of `n` pages (sections of 10), an image on every tenth page. */
  async function spaceWith(n: number) {
    const space = await call('POST', `/v1/orgs/${org}/spaces`, token, { title: `Handbook of ${n} pages` });
    const files = await call('POST', `/v1/spaces/${space.id}/change-requests`, token, {});
    await call('POST', `/v1/spaces/${space.id}/change-requests/${files.id}/content`, token, {
      changes: [
        {
          operation: 'insert_files',
          files: [{ name: 'screen.png', contentType: 'image/png', base64: screenshot().toString('base64') }],
        },
      ],
    });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${files.id}/merge`, token);
    const image = (await call('GET', `/v1/spaces/${space.id}/content/files`, token)).items[0].id as string;
    const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, token, {});
    for (let done = 0; done < n; ) {
      const batch = Math.min(50, n - done);
      await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, token, {
        changes: Array.from({ length: batch }, (_, k) => {
          const i = done + k;
          return i % 10 === 0
            ? {
                operation: 'insert_page',
                ref: `s${i}`,
                title: `Section ${i / 10 + 1}`,
                document: { markdown: pageMarkdown(i, image) },
              }
            : {
                operation: 'insert_page',
                into: `s${i - (i % 10)}`,
                title: `Topic ${i}`,
                document: { markdown: pageMarkdown(i, undefined) },
              };
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
    const row = (
      await db.query('select pages, size, render_ms from content.pdf_export where space_id = $1', [space.id])
    ).rows[0];
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
  await platform.stop();
}
