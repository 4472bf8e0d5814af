import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StorageUploadKind } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { acmeAndOther, apiError, type Boot, type Seat, usePlatform } from './harness.ts';

/** A real WOFF2 file (Lato, from the repository's bundled fonts). */
const WOFF2 = readFileSync(
  join(
    dirname(fileURLToPath(import.meta.url)),
    '../../../../node_modules/@fontsource/lato/files/lato-latin-400-normal.woff2',
  ),
);

// Custom fonts through the gateway with GitBook's official client: a signed upload, the five font operations.
describe('custom fonts through the gateway (@gitbook/api)', () => {
  const p = usePlatform();
  let acme: Boot;
  let reader: Seat;
  let other: Boot;
  beforeAll(async () => {
    ({ acme, reader, other } = await acmeAndOther(p));
  });

  /** An upload URL from the official client, and the file PUT to it with no API token (the URL is the permission). */
  async function upload(bytes: Buffer, name = 'lato.woff2') {
    const api = p.client(acme.token);
    const { data } = await api.orgs.generateStorageUploadUrl(acme.organization.id, {
      kind: StorageUploadKind.CustomizationFont,
      file: { name, type: 'font/woff2', size: bytes.length },
    });
    const res = await fetch(`${p.url}${new URL(data.url).pathname}`, { method: 'PUT', body: new Uint8Array(bytes) });
    return { data, res, body: await res.json() };
  }

  it('uploads a font file to a signed URL and makes a custom font of it', async () => {
    const org = acme.organization.id;
    const { data, res, body } = await upload(WOFF2);
    expect(data.object).toBe('storage-signed-url');
    expect(res.status).toBe(200);
    expect(body).toEqual({ key: data.key });
    // The same URL twice: 409. Not a font: 400.
    expect(
      (await fetch(`${p.url}${new URL(data.url).pathname}`, { method: 'PUT', body: new Uint8Array(WOFF2) })).status,
    ).toBe(409);
    const fake = await upload(Buffer.from('<!doctype html><script>alert(1)</script>'));
    expect([fake.res.status, fake.body.error.message]).toEqual([400, expect.stringContaining('not a font file')]);

    const api = p.client(acme.token);
    const font = (
      await api.orgs.createCustomFont(org, {
        fontFamily: 'Acme Sans',
        fontFaces: [{ weight: 400, storageKey: data.key }],
      })
    ).data;
    expect(font).toMatchObject({ custom: true, fontFamily: 'Acme Sans', permissions: { edit: true } });
    const url = font.fontFaces[0]!.sources[0]!.url;
    const file = await fetch(`${p.url}${new URL(url).pathname}`);
    expect([file.status, file.headers.get('content-type'), file.headers.get('cache-control')]).toEqual([
      200,
      'font/woff2',
      'public, max-age=31536000, immutable',
    ]);
    expect(Buffer.from(await file.arrayBuffer()).equals(WOFF2)).toBe(true);

    const listed = (await p.client(reader.token).orgs.listCustomFonts(org)).data;
    expect(listed.items).toEqual([{ ...font, permissions: { edit: false } }]);
    expect((await api.orgs.getCustomFont(org, font.id)).data.fontFamily).toBe('Acme Sans');
    const renamed = (await api.orgs.updateCustomFont(org, font.id, { fontFamily: 'Acme Text', fontFaces: [] })).data;
    expect(renamed.fontFamily).toBe('Acme Text');

    // Members read, admins edit; another organization sees nothing.
    expect(
      await apiError(p.client(reader.token).orgs.updateCustomFont(org, font.id, { fontFamily: 'X', fontFaces: [] })),
    ).toMatchObject({ code: 403 });
    expect(await apiError(p.client(other.token).orgs.getCustomFont(org, font.id))).toMatchObject({ code: 404 });
    expect(
      await apiError(
        api.orgs.createCustomFont(org, { fontFamily: 'Bold only', fontFaces: [{ weight: 700, storageKey: data.key }] }),
      ),
    ).toEqual({ code: 412, message: 'A custom font needs a face of weight 400 (regular)' });

    await api.orgs.deleteCustomFont(org, font.id);
    expect(await apiError(api.orgs.getCustomFont(org, font.id))).toMatchObject({ code: 404 });
    // Its file is no longer served: no custom font names it.
    expect((await fetch(`${p.url}${new URL(url).pathname}`)).status).toBe(404);
  });

  it('refuses a file over 2 MiB, and uploads of readers', async () => {
    const org = acme.organization.id;
    const big = await apiError(
      p.client(acme.token).orgs.generateStorageUploadUrl(org, {
        kind: StorageUploadKind.CustomizationFont,
        file: { name: 'big.woff2', type: 'font/woff2', size: 3 * 1024 * 1024 },
      }),
    );
    expect(big.code).toBe(413);
    const refused = await apiError(
      p.client(reader.token).orgs.generateStorageUploadUrl(org, {
        kind: StorageUploadKind.CustomizationFont,
        file: { name: 'a.woff2', type: 'font/woff2', size: 10 },
      }),
    );
    expect(refused.code).toBe(403);
  });
});
