import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { pdfText, png } from '@quire/kit/testing';
import { apiError, changeRequestWith, mergeChanges, useCast } from './harness.ts';

/** Debian's `pdftotext` (poppler-utils): `.ci/run` installs it and sets QUIRE_REQUIRE_PDFTOTEXT=1; PDF.js reads the text anyway. */
const PDFTOTEXT = '/usr/bin/pdftotext';
const hasPdftotext = existsSync(PDFTOTEXT);
if (!hasPdftotext && process.env.QUIRE_REQUIRE_PDFTOTEXT === '1')
  throw new Error(
    `pdftotext is required (QUIRE_REQUIRE_PDFTOTEXT=1) but ${PDFTOTEXT} is missing: apt-get install -y poppler-utils`,
  );

/** An 8 × 4 red PNG. */
const RED_PNG = png(8, 4).toString('base64');

/** The text of a PDF as `pdftotext` prints it (when installed) and as PDF.js reads it, spaces squeezed. */
async function textsOf(bytes: Buffer): Promise<string[]> {
  const texts = [(await pdfText(bytes)).text];
  if (hasPdftotext) {
    const dir = mkdtempSync(join(tmpdir(), 'quire-pdf-'));
    try {
      writeFileSync(join(dir, 'export.pdf'), bytes);
      texts.push(execFileSync(PDFTOTEXT, ['-enc', 'UTF-8', join(dir, 'export.pdf'), '-'], { encoding: 'utf8' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return texts.map((t) => t.replace(/\s+/g, ' '));
}

/**
 * PDF export through the gateway with the official client, over both transports: small contents render while
 * the request waits, larger ones (more than 3 pages here) in the background job, their link waiting for them.
 */
describe.each(['in-process', 'http'] as const)('PDF export (%s transport)', (transport) => {
  const { p, acme, reader, guest, other } = useCast(
    { reader: ['rita@acme.io', 'read'], guest: ['gus@acme.io', 'guest'] },
    { transport, env: { QUIRE_PDF_INLINE_MAX_PAGES: '3', QUIRE_PDF_LINK_WAIT_MS: '2000' } },
  );
  /** The platform's address in place of the public URL (`http://quire.test`) links are built on. */
  const local = (url: string) => url.replace('http://quire.test', p.url);
  const errorOf = async (res: Response) => ({
    status: res.status,
    type: res.headers.get('content-type'),
    body: await res.json(),
  });

  /** Downloads a PDF link without any token, as a browser or `curl --retry` would: a 503 is retried after its Retry-After. */
  async function download(url: string): Promise<{ bytes: Buffer; res: Response; waited: number }> {
    let waited = 0;
    for (;;) {
      const res = await fetch(local(url));
      if (res.status !== 503 || waited > 60) {
        expect(res.status).toBe(200);
        return { bytes: Buffer.from(await res.arrayBuffer()), res, waited };
      }
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({
        error: { code: 503, message: 'The PDF is still being rendered: retry in a few seconds' },
      });
      await new Promise((r) => setTimeout(r, 500));
      waited++;
    }
  }

  afterAll(async () => {
    vi.useRealTimers();
  });

  /** A space with `pages` merged in (an image `red.png` shown on the first). */
  async function spaceWith(title: string, pages: { title: string; markdown: string }[]) {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title })).data;
    await mergeChanges(
      api,
      space.id,
      [{ operation: 'insert_files', files: [{ name: 'red.png', contentType: 'image/png', base64: RED_PNG }] }],
      'Files',
    );
    const red = (await api.spaces.listFiles(space.id)).data.items[0]!;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Pages' })).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: pages.map((pg, i) => ({
        operation: 'insert_page',
        title: pg.title,
        document: {
          markdown:
            i === 0 ? `${pg.markdown}\n\n![Red square](gitbook-file:${red.id} "The red figure")\n` : pg.markdown,
        },
      })),
    } as never);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    return { api, space };
  }

  it('gives a signed link to a real PDF of the space: no token needed, the words of its pages, cached by revision', async () => {
    const { api, space } = await spaceWith('Multilingual handbook', [
      { title: 'Greek', markdown: 'Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο.' },
      {
        title: 'Russian',
        markdown: '**Съешь** же ещё этих мягких французских булок, да выпей чаю.\n\n```js\nconst answer = 42;\n```\n',
      },
    ]);
    const { data } = await p.client(reader.token).spaces.getSpacePdf(space.id);
    expect(Object.keys(data)).toEqual(['url']);
    expect(data.url).toMatch(/^http:\/\/quire\.test\/v1\/downloads\/[\w-]+\.[\w-]+\.[\w-]+$/);

    const first = await download(data.url);
    expect(first.waited).toBe(0);
    expect(first.res.headers.get('content-type')).toBe('application/pdf');
    expect(first.res.headers.get('content-disposition')).toContain(`filename="Multilingual handbook.pdf"`);
    expect(first.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    for (const text of await textsOf(first.bytes)) {
      expect(text).toContain('Multilingual handbook');
      expect(text).toContain('Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο.');
      expect(text).toContain('Съешь же ещё этих мягких французских булок, да выпей чаю.');
      expect(text).toContain('const answer = 42;');
      expect(text).toContain('The red figure');
    }

    // Same revision: the same file, whoever asks.
    const again = await download((await api.spaces.getSpacePdf(space.id)).data.url);
    expect(Buffer.compare(again.bytes, first.bytes)).toBe(0);
    // One page alone.
    const russian = (await api.spaces.listPages(space.id)).data.pages.find((pg) => pg.title === 'Russian')!;
    const alone = await textsOf(
      (await download((await api.spaces.getSpacePdf(space.id, { page: russian.id, only: true })).data.url)).bytes,
    );
    expect(alone[0]).toContain('французских булок');
    expect(alone[0]).not.toContain('αλεπού');

    // A new revision: another file.
    const cr = await changeRequestWith(
      api,
      space.id,
      [{ operation: 'update_page', page: russian.id, document: { markdown: 'Новый текст.' } }],
      'More',
    );
    // The change request's content, before its merge.
    const inCr = await download((await p.client(reader.token).spaces.getChangeRequestPdf(space.id, cr.id)).data.url);
    expect((await textsOf(inCr.bytes))[0]).toContain('Новый текст.');
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const merged = await download((await api.spaces.getSpacePdf(space.id)).data.url);
    expect(Buffer.compare(merged.bytes, first.bytes)).not.toBe(0);
    expect((await textsOf(merged.bytes))[0]).toContain('Новый текст.');
  });

  it('renders a large space in the background: the link answers once the PDF is ready', async () => {
    const { space } = await spaceWith(
      'Big book',
      Array.from({ length: 6 }, (_, i) => ({
        title: `Κεφάλαιο ${i + 1}`,
        markdown: `Глава ${i + 1}: ${'lorem ipsum dolor sit amet '.repeat(50)}`,
      })),
    );
    const { url } = (await p.client(reader.token).spaces.getSpacePdf(space.id)).data;
    const { bytes } = await download(url);
    const pdf = await pdfText(bytes);
    expect(pdf.outline).toEqual(['Κεφάλαιο 1', 'Κεφάλαιο 2', 'Κεφάλαιο 3', 'Κεφάλαιο 4', 'Κεφάλαιο 5', 'Κεφάλαιο 6']);
    for (const text of await textsOf(bytes)) expect(text).toContain('Глава 6:');
    const [row] = await p.sql<{ state: string; pages: number }>(
      'select state, pages from content.pdf_export where space_id = $1',
      [space.id],
    );
    expect(row).toMatchObject({ state: 'ready', pages: pdf.pages.length });

    // While a render is under way the link waits a little, then says when to come back, in the error shape.
    await p.sql(
      `update content.pdf_export set state = 'progress', lease_until = now() + interval '1 hour' where space_id = $1`,
      [space.id],
    );
    const started = Date.now();
    const res = await fetch(local(url));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await errorOf(res)).toEqual({
      status: 503,
      type: 'application/json; charset=utf-8',
      body: { error: { code: 503, message: 'The PDF is still being rendered: retry in a few seconds' } },
    });
    await p.sql(`update content.pdf_export set state = 'ready', lease_until = null where space_id = $1`, [space.id]);
    expect((await fetch(local(url))).status).toBe(200);
  });

  it('refuses a tampered link (404) and an expired one (410), in the error shape', async () => {
    const { space } = await spaceWith('Expiring', [{ title: 'Only page', markdown: 'Short-lived.' }]);
    const { url } = (await p.client(acme.token).spaces.getSpacePdf(space.id)).data;
    const token = url.split('/').at(-1)!;
    const [header, claims, sig] = token.split('.') as [string, string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const bad of [`${header}.${flip(claims, 3)}.${sig}`, `${header}.${claims}.${flip(sig, 0)}`]) {
      expect(await errorOf(await fetch(`${p.url}/v1/downloads/${bad}`))).toEqual({
        status: 404,
        type: 'application/json; charset=utf-8',
        body: { error: { code: 404, message: 'Download link not found' } },
      });
    }
    expect((await fetch(local(url))).status).toBe(200);
    // An hour later (the clock moved, not waited for) the link has expired.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3600_000 + 1_000);
    try {
      expect(await errorOf(await fetch(local(url)))).toEqual({
        status: 410,
        type: 'application/json; charset=utf-8',
        body: { error: { code: 410, message: 'This download link has expired' } },
      });
    } finally {
      vi.useRealTimers();
    }
    // A new link works again.
    expect((await fetch(local((await p.client(acme.token).spaces.getSpacePdf(space.id)).data.url))).status).toBe(200);
  });

  it('refuses callers who cannot read the space, an unknown page and `only` without a page', async () => {
    const { space } = await spaceWith('Private notes', [{ title: 'Notes', markdown: 'Nothing to see.' }]);
    expect(await apiError(p.client(guest.token).spaces.getSpacePdf(space.id))).toMatchObject({ code: 404 });
    expect(await apiError(p.client(other.token).spaces.getSpacePdf(space.id))).toMatchObject({ code: 404 });
    expect((await fetch(`${p.url}/v1/spaces/${space.id}/pdf`)).status).toBe(401);
    expect(await apiError(p.client(reader.token).spaces.getSpacePdf(space.id, { page: 'no-such-page' }))).toEqual({
      code: 404,
      message: 'Page not found',
    });
    const onlyAlone = await apiError(p.client(reader.token).spaces.getSpacePdf(space.id, { only: true }));
    expect(onlyAlone.code).toBe(400);
    expect(onlyAlone.message).toMatch(/^Invalid request: page: /);
    expect(await apiError(p.client(reader.token).spaces.getChangeRequestPdf(space.id, 'no-such-cr'))).toMatchObject({
      code: 404,
    });
    // A space closed to members (no default level): the reader has no read on it.
    await p.client(acme.token).spaces.updateSpaceById(space.id, { defaultLevel: null } as never);
    expect(await apiError(p.client(reader.token).spaces.getSpacePdf(space.id))).toMatchObject({ code: 404 });
  });
});
