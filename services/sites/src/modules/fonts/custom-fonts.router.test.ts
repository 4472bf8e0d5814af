import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { blobKeyOf } from '@quire/kit';
import { organizationFontsDropper } from '../../commands/custom-font-commands.ts';
import { orgActors, refusal, spaceWithPages, useSitesAndContent } from '../../test-support.ts';
import { sweepFontBlobs, UNUSED_UPLOAD_MS } from './font-blob-sweep.job.ts';

/**
 * Custom fonts against PostgreSQL: a signed upload URL, the bytes PUT to it (as the gateway hands them over), the five
 * font operations with their rules, and a published site drawing its text with the font from one linked stylesheet.
 */
const ORG = 'org-fonts';
const { admin, creator, reader, stranger } = orgActors(ORG, 'org-other-fonts');
const gateway: Actor = { kind: 'service', service: 'gateway' };
const p = useSitesAndContent('custom-fonts', { orgAdmin: true, inProcessBus: true });

/** A WOFF2 file's first bytes and some payload: what the magic-byte check reads. */
const woff2 = (n = 64) => Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(n - 4, n % 251)]);

async function upload(bytes: Buffer, name = 'brand.woff2', size = bytes.length) {
  const url = await p.sites.call(
    ops.generateStorageUploadURL,
    { organizationId: ORG, kind: 'customization_font', file: { name, type: 'font/woff2', size } },
    admin,
  );
  const token = url.url.split('/v1/storage/uploads/')[1]!;
  return {
    url,
    token,
    put: () => p.sites.call(ops.uploadStorageFile, { token, body: bytes.toString('base64') }, gateway),
  };
}

describe('storage uploads of font files', () => {
  it('signs an upload URL for an org admin, stores a font once, and refuses what is not one', async () => {
    const { url, put } = await upload(woff2());
    expect(url).toMatchObject({
      object: 'storage-signed-url',
      key: expect.stringMatching(/^org-fonts\/fonts\/.+\.woff2$/),
    });
    expect(url.url).toMatch(/\/v1\/storage\/uploads\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await put()).toEqual({ key: url.key });
    expect(await refusal(put())).toMatchObject({ reason: 'conflict' });

    const html = await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'evil.woff2');
    expect(await refusal(html.put())).toMatchObject({
      reason: 'invalid_input',
      message: expect.stringContaining('not a font file'),
    });
    const big = await upload(woff2(200), 'big.woff2', 100);
    expect(await refusal(big.put())).toMatchObject({ reason: 'payload_too_large' });
    expect(
      await refusal(p.sites.call(ops.uploadStorageFile, { token: 'a.b.c', body: woff2().toString('base64') }, gateway)),
    ).toMatchObject({ reason: 'forbidden' });
  });

  it('takes font files only, at most 2 MiB, from org admins', async () => {
    const ask = (as: Actor, file: { name: string; size: number }, kind = 'customization_font' as const) =>
      p.sites.call(ops.generateStorageUploadURL, { organizationId: ORG, kind, file: { ...file, type: 'x/y' } }, as);
    expect(await refusal(ask(admin, { name: 'a.woff2', size: 2 * 1024 * 1024 + 1 }))).toMatchObject({
      reason: 'payload_too_large',
    });
    expect(await refusal(ask(admin, { name: 'a.exe', size: 10 }))).toMatchObject({ reason: 'invalid_input' });
    expect(
      await refusal(
        p.sites.call(
          ops.generateStorageUploadURL,
          { organizationId: ORG, kind: 'import_file', file: { name: 'a.woff2', size: 10, type: 'x/y' } },
          admin,
        ),
      ),
    ).toMatchObject({ reason: 'invalid_input', message: expect.stringContaining('customization_font') });
    expect(await refusal(ask(creator, { name: 'a.woff2', size: 10 }))).toMatchObject({ reason: 'forbidden' });
    expect(await refusal(ask(stranger, { name: 'a.woff2', size: 10 }))).toMatchObject({ reason: 'not_found' });
  });
});

describe('custom fonts', () => {
  it('creates, lists, gets, updates and deletes a font; members read, admins edit', async () => {
    const regular = await upload(woff2(80));
    await regular.put();
    const bold = await upload(woff2(96));
    await bold.put();

    const create = (fontFaces: { weight: number; storageKey: string }[], as: Actor = admin) =>
      p.sites.call(ops.createCustomFont, { organizationId: ORG, fontFamily: 'Brand Sans', fontFaces }, as);
    expect(await refusal(create([{ weight: 700, storageKey: bold.url.key }]))).toMatchObject({
      reason: 'precondition_failed',
      message: expect.stringContaining('weight 400'),
    });
    expect(await refusal(create([{ weight: 400, storageKey: 'org-fonts/fonts/nope.woff2' }]))).toMatchObject({
      reason: 'precondition_failed',
    });
    expect(await refusal(create([{ weight: 400, storageKey: regular.url.key }], creator))).toMatchObject({
      reason: 'forbidden',
    });

    const font = await create([
      { weight: 700, storageKey: bold.url.key },
      { weight: 400, storageKey: regular.url.key },
    ]);
    expect(font).toMatchObject({ custom: true, fontFamily: 'Brand Sans', permissions: { edit: true } });
    expect(font.fontFaces.map((f) => f.weight)).toEqual([400, 700]);
    expect(font.fontFaces[0]!.sources[0]).toEqual({
      url: expect.stringMatching(/\/_quire\/fonts\/files\/[0-9a-f]{64}\.woff2$/),
      format: 'woff2',
    });

    const listed = await p.sites.call(ops.listCustomFonts, { organizationId: ORG }, reader);
    expect(listed.items.find((f) => f.id === font.id)).toMatchObject({
      fontFamily: 'Brand Sans',
      permissions: { edit: false },
    });
    expect(await refusal(p.sites.call(ops.listCustomFonts, { organizationId: ORG }, stranger))).toMatchObject({
      reason: 'not_found',
    });

    const ids = { organizationId: ORG, fontId: font.id };
    const updated = await p.sites.call(
      ops.updateCustomFont,
      { ...ids, fontFamily: 'Brand', fontFaces: [{ weight: 700, storageKey: null }] },
      admin,
    );
    expect(updated).toMatchObject({ fontFamily: 'Brand', fontFaces: [{ weight: 400 }] });
    expect(
      await refusal(
        p.sites.call(ops.updateCustomFont, { ...ids, fontFaces: [{ weight: 400, storageKey: null }] }, admin),
      ),
    ).toMatchObject({ reason: 'precondition_failed' });
    expect(await p.sites.call(ops.getCustomFont, ids, reader)).toMatchObject({ fontFamily: 'Brand' });

    await p.sites.call(ops.deleteCustomFont, ids, admin);
    expect(await refusal(p.sites.call(ops.getCustomFont, ids, admin))).toMatchObject({ reason: 'not_found' });
  });
});

describe('a custom font on the published site', () => {
  it('links one immutable stylesheet per font set, which serves @font-face from the instance', async () => {
    const file = await upload(woff2(120));
    await file.put();
    const font = await p.sites.call(
      ops.createCustomFont,
      { organizationId: ORG, fontFamily: 'Brand Serif', fontFaces: [{ weight: 400, storageKey: file.url.key }] },
      admin,
    );
    const spaceId = await spaceWithPages(p, { org: ORG, title: 'Font docs', as: admin }, [
      { title: 'Welcome', markdown: 'Hello.' },
    ]);
    const site = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Fonts', spaces: [spaceId] }, admin);
    await p.sites.call(ops.publishSite, { organizationId: ORG, siteId: site.id }, admin);
    const open = (path: string) =>
      p.sites.call(ops.getPublishedSitePage, { host: 'quire.test', path, query: {}, cookies: {} }, gateway);
    const before = await open(`/sites/${site.basename}`);

    await p.sites.call(
      ops.updateSiteCustomizationById,
      { organizationId: ORG, siteId: site.id, styling: { font } },
      admin,
    );
    const page = await open(`/sites/${site.basename}`);
    if (page.kind !== 'response' || before.kind !== 'response') throw new Error('no page');
    expect(page.body).not.toContain('@font-face');
    const href = /<link rel="stylesheet" href="([^"]+\/~fonts\/[0-9a-f]{20}\.css)">/.exec(page.body)?.[1];
    expect(href, 'the page links its font stylesheet').toBeTruthy();
    expect(/<link rel="stylesheet" href="([^"]+\/~fonts\/[0-9a-f]{20}\.css)">/.exec(before.body)?.[1]).not.toBe(href);

    const sheet = await open(href!);
    if (sheet.kind !== 'response') throw new Error('no sheet');
    expect(sheet.status).toBe(200);
    expect(sheet.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(sheet.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const fileUrl = font.fontFaces[0]!.sources[0]!.url;
    const path = new URL(fileUrl).pathname;
    expect(sheet.body).toContain(
      `@font-face{font-family:"Brand Serif";font-style:normal;font-display:swap;font-weight:400;src:url("${path}") format("woff2")}`,
    );
    expect(sheet.body).toContain('body,button,input,select,textarea{font-family:"Brand Serif"');
    const wrong = await open(href!.replace(/[0-9a-f]{20}\.css$/, `${'0'.repeat(20)}.css`));
    expect(wrong).toMatchObject({ status: 404 });

    const blobKey = /([0-9a-f]{64})\.woff2$/.exec(path)![1]!;
    const served = await p.sites.call(ops.getCustomFontFile, { blobKey }, gateway);
    expect(served).toMatchObject({ found: true, contentType: 'font/woff2' });
    expect(Buffer.from(served.body, 'base64').equals(woff2(120))).toBe(true);
    // Bytes no custom font names are not served.
    const orphan = await upload(woff2(140));
    await orphan.put();
    expect(await p.sites.call(ops.getCustomFontFile, { blobKey: '0'.repeat(64) }, gateway)).toMatchObject({
      found: false,
    });

    // What the linked stylesheet saves each page: its CSS was inlined in a <style> before.
    const inline = `<style>${sheet.body}</style>`.length - `<link rel="stylesheet" href="${href}">`.length;
    console.info(`font stylesheet: page ${page.body.length} B, inlined it would be ${page.body.length + inline} B`);
    expect(inline).toBeGreaterThan(0);
  });
});

describe('a site that chose a custom font', () => {
  it('follows its updates, and draws the default font once it is deleted', async () => {
    const regular = await upload(woff2(306));
    await regular.put();
    const font = await p.sites.call(
      ops.createCustomFont,
      { organizationId: ORG, fontFamily: 'Follow Sans', fontFaces: [{ weight: 400, storageKey: regular.url.key }] },
      admin,
    );
    const spaceId = await spaceWithPages(p, { org: ORG, title: 'Follow docs', as: admin }, [
      { title: 'Welcome', markdown: 'Hello.' },
    ]);
    const site = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Follow', spaces: [spaceId] }, admin);
    await p.sites.call(ops.publishSite, { organizationId: ORG, siteId: site.id }, admin);
    const ids = { organizationId: ORG, siteId: site.id };
    await p.sites.call(ops.updateSiteCustomizationById, { ...ids, styling: { font, headingFont: font } }, admin);
    const open = (path: string) =>
      p.sites.call(ops.getPublishedSitePage, { host: 'quire.test', path, query: {}, cookies: {} }, gateway);
    const sheetOf = async () => {
      const page = await open(`/sites/${site.basename}`);
      if (page.kind !== 'response') throw new Error('no page');
      const href = /<link rel="stylesheet" href="([^"]+\/~fonts\/[0-9a-f]{20}\.css)">/.exec(page.body)?.[1];
      const sheet = href ? await open(href) : null;
      return sheet?.kind === 'response' ? sheet.body : '';
    };
    expect(await sheetOf()).toContain('font-family:"Follow Sans"');
    expect(await sheetOf()).not.toContain(blobKeyOf(woff2(307)));

    // A bold face added to the font: the site draws it without choosing the font again.
    const bold = await upload(woff2(307));
    await bold.put();
    await p.sites.call(
      ops.updateCustomFont,
      { organizationId: ORG, fontId: font.id, fontFaces: [{ weight: 700, storageKey: bold.url.key }] },
      admin,
    );
    const followed = await p.sites.call(ops.getSiteCustomizationById, ids, admin);
    const chosen = followed.styling.font as { id: string; fontFaces: { weight: number }[] };
    expect(chosen.id).toBe(font.id);
    expect(chosen.fontFaces.map((f) => f.weight)).toEqual([400, 700]);
    expect(followed.styling.headingFont).toEqual(followed.styling.font);
    const sheet = await sheetOf();
    expect(sheet).toContain('font-weight:700');
    expect(sheet).toContain(`${blobKeyOf(woff2(307))}.woff2`);

    // Deleted: the site falls back to the default font (Inter), its heading font to the text's.
    await p.sites.call(ops.deleteCustomFont, { organizationId: ORG, fontId: font.id }, admin);
    const after = await p.sites.call(ops.getSiteCustomizationById, ids, admin);
    expect(after.styling.font).toBe('Inter');
    expect(after.styling.headingFont ?? null).toBeNull();
    const fallback = await sheetOf();
    expect(fallback).not.toContain('Follow Sans');
    expect(fallback).toContain('Inter');
  });
});

describe('font files no font uses any more', () => {
  const blobs = () => p.sites.svc.deps.blobs;
  const sweep = (now = new Date()) => sweepFontBlobs(p.sites.em(), blobs(), now);
  const served = async (bytes: Buffer) =>
    (await p.sites.call(ops.getCustomFontFile, { blobKey: blobKeyOf(bytes) }, gateway)).found;
  const stored = (bytes: Buffer) => blobs().has(blobKeyOf(bytes));
  const create = (fontFamily: string, fontFaces: { weight: number; storageKey: string }[]) =>
    p.sites.call(ops.createCustomFont, { organizationId: ORG, fontFamily, fontFaces }, admin);

  it('removes the bytes of a replaced face and of a deleted font, never bytes another font still uses', async () => {
    await sweep(); // What earlier tests left queued.
    const shared = woff2(301);
    const [a, b, bold1, bold2] = [
      await upload(shared),
      await upload(shared),
      await upload(woff2(302)),
      await upload(woff2(303)),
    ];
    for (const u of [a, b, bold1, bold2]) await u.put();
    const fontA = await create('Shared A', [
      { weight: 400, storageKey: a.url.key },
      { weight: 700, storageKey: bold1.url.key },
    ]);
    const fontB = await create('Shared B', [{ weight: 400, storageKey: b.url.key }]);

    await p.sites.call(
      ops.updateCustomFont,
      { organizationId: ORG, fontId: fontA.id, fontFaces: [{ weight: 700, storageKey: bold2.url.key }] },
      admin,
    );
    expect(await stored(woff2(302)), 'kept until the sweep').toBe(true);
    expect(await sweep()).toMatchObject({ removed: 1, kept: 0 });
    expect(await stored(woff2(302))).toBe(false);
    expect(await served(woff2(302))).toBe(false);
    expect(await stored(woff2(303))).toBe(true);
    // The replaced face's upload is gone: naming it again is refused.
    expect(
      await refusal(
        p.sites.call(
          ops.updateCustomFont,
          { organizationId: ORG, fontId: fontA.id, fontFaces: [{ weight: 700, storageKey: bold1.url.key }] },
          admin,
        ),
      ),
    ).toMatchObject({ reason: 'precondition_failed' });

    await p.sites.call(ops.deleteCustomFont, { organizationId: ORG, fontId: fontA.id }, admin);
    expect(await sweep()).toMatchObject({ removed: 1, kept: 1 });
    expect(await stored(woff2(303))).toBe(false);
    expect(await stored(shared), 'font B names the same bytes').toBe(true);
    expect(await served(shared)).toBe(true);

    await p.sites.call(ops.deleteCustomFont, { organizationId: ORG, fontId: fontB.id }, admin);
    expect(await sweep()).toMatchObject({ removed: 1 });
    expect(await stored(shared)).toBe(false);
    expect(await served(shared)).toBe(false);
  });

  it('drops uploads left unused for a day, and the files of a deleted organization', async () => {
    const unused = await upload(woff2(304));
    await unused.put();
    expect(await sweep()).toMatchObject({ unusedUploads: 0 });
    expect(await stored(woff2(304))).toBe(true);
    const later = new Date(Date.now() + UNUSED_UPLOAD_MS + 60_000);
    expect((await sweep(later)).unusedUploads).toBeGreaterThanOrEqual(1);
    expect(await stored(woff2(304))).toBe(false);

    const file = await upload(woff2(305));
    await file.put();
    await create('Org Font', [{ weight: 400, storageKey: file.url.key }]);
    await p.sites.em().transactional((tx) => organizationFontsDropper(tx, { organizationId: ORG }));
    expect(await stored(woff2(305))).toBe(true);
    await sweep();
    expect(await stored(woff2(305))).toBe(false);
    expect((await p.sites.call(ops.listCustomFonts, { organizationId: ORG }, admin)).items).toEqual([]);
  });
});
