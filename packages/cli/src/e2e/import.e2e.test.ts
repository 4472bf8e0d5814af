import { afterAll, describe, expect, it } from 'vitest';
import { pngImage, useWebSite } from '@quire/kit/testing';
import { type Boot, bootstrap, changeRequestWith, type Platform, startPlatform, useCast } from './harness.ts';

const COVER = pngImage(40, 20);
const FEATHER = pngImage(8, 30, [90, 90, 90]);
const page = (title: string, main: string) =>
  `<!doctype html><html><head><title>${title} · Field Guide</title></head><body><nav><a href="/guide/">Guide</a> <a href="/guide/birds/">Birds</a></nav><main>${main}</main><footer>Field Guide</footer></body></html>`;

/** A small site: three pages (Owls below Birds), two images, a link to a missing page. */
const FIELD_GUIDE = {
  '/guide/': page(
    'Home',
    '<h1>Field Guide</h1><p><img src="img/cover.png" alt="Cover"></p><p>Read about <a href="birds/">birds</a>, <a href="birds/owls.html#night">owls at night</a> and <a href="trees.html">trees</a>.</p>',
  ),
  '/guide/birds/': page(
    'Birds',
    '<h1>Birds</h1><p><img src="../img/feather.png" alt="A feather"> Most birds fly. See <a href="owls.html">owls</a>.</p>',
  ),
  '/guide/birds/owls.html': page(
    'Owls',
    '<h1>Owls</h1><p>Owls are <a href="../birds/">birds</a>.</p><h2 id="night">Hunting at night</h2><p>Silently.</p>',
  ),
  '/guide/img/cover.png': { body: COVER, type: 'image/png' },
  '/guide/img/feather.png': { body: FEATHER, type: 'image/png' },
};

const site = useWebSite(FIELD_GUIDE);
const { p, acme, editor, reader, other } = useCast(
  { editor: ['ed@acme.io', 'edit'], reader: ['rita@acme.io', 'read'] },
  { env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' } },
);

/** The official client has no method for the import: a plain POST with the bearer token. */
async function post(at: Platform, token: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${at.url}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
async function get(token: string, path: string): Promise<any> {
  return (await fetch(`${p.url}/v1${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
}
type Tree = { id: string; title: string; path: string; pages?: Tree[] };
const outline = (pages: Tree[]): unknown[] =>
  pages.map((pg) => (pg.pages?.length ? [pg.title, outline(pg.pages)] : pg.title));
const all = (pages: Tree[]): Tree[] => pages.flatMap((pg) => [pg, ...all(pg.pages ?? [])]);

describe('website import (through the gateway)', () => {
  it('imports a site into a space: pages, their tree, images, links between pages resolving, a partial import counted', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Nature' })).data;
    const started = Date.now();
    const res = await post(p, acme.token, `/spaces/${space.id}/content/import`, {
      url: `${site.origin}/guide/`,
      source: 'website',
    });
    const ms = Date.now() - started;
    expect(res.status).toBe(201);
    // 3 pages and 2 images imported of 6 resources: the missing trees page is counted, not imported.
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 5, totalResources: 6 });
    expect(ms).toBeLessThan(10_000);

    expect((await api.spaces.getCurrentRevision(space.id)).data.id).toBe(res.body.revision);
    const pages = (await api.spaces.listPages(space.id)).data.pages as unknown as Tree[];
    expect(outline(pages)).toEqual(['Field Guide', ['Birds', ['Owls']]]);
    expect(all(pages).map((pg) => pg.path)).toEqual(['field-guide', 'birds', 'birds/owls']);
    const files = (await api.spaces.listFiles(space.id)).data.items;
    expect(files.map((f) => [f.name, f.contentType, f.dimensions]).sort()).toEqual([
      ['cover.png', 'image/png', { width: 40, height: 20 }],
      ['feather.png', 'image/png', { width: 8, height: 30 }],
    ]);
    const feather = files.find((f) => f.name === 'feather.png')!;
    expect(
      Buffer.from(await (await fetch(feather.downloadURL.replace('http://quire.test', p.url))).arrayBuffer()).equals(
        FEATHER,
      ),
    ).toBe(true);

    const owls = all(pages).find((pg) => pg.title === 'Owls')!;
    const birds = all(pages).find((pg) => pg.title === 'Birds')!;
    const markdown = (await api.spaces.getPageById(space.id, owls.id, { format: 'markdown' })).data as {
      markdown?: string;
    };
    expect(markdown.markdown).toBe(`Owls are [birds](/pages/${birds.id}).\n\n## Hunting at night\n\nSilently.\n`);

    const links = await get(acme.token, `/spaces/${space.id}/links`);
    expect(links.stats.broken.total).toBe(0);
    const internal = links.items.filter((i: any) => ['page', 'anchor'].includes(i.targetReference.kind));
    expect(
      internal
        .map((i: any) => [i.status, i.targetReference.kind, i.targetReference.page, i.targetReference.anchor])
        .sort(),
    ).toEqual(
      [
        ['ok', 'anchor', owls.id, 'hunting-at-night'],
        ['ok', 'page', birds.id, undefined],
        ['ok', 'page', owls.id, undefined],
      ].sort(),
    );
    expect(links.items.find((i: any) => i.targetReference.kind === 'url')).toMatchObject({
      status: 'ok',
      targetReference: { url: `${site.origin}/guide/trees.html` },
    });
    const backlinks = await get(acme.token, `/spaces/${space.id}/content/files/${feather.id}/backlinks`);
    expect(backlinks.items).toEqual([expect.objectContaining({ kind: 'page', page: birds.id })]);

    // It went through a change request, merged.
    const merged = (await api.spaces.listChangeRequestsForSpace(space.id, { status: 'merged' } as never)).data.items;
    expect(merged.map((cr) => [cr.subject, cr.createdBy.id, cr.revision])).toEqual([
      [`Import of ${site.origin}/guide/`, acme.user.id, expect.any(String)],
    ]);
  });

  it('imports into a change request only, which then merges like any other', async () => {
    const api = p.client(editor.token);
    const admin = p.client(acme.token);
    const space = (await admin.orgs.createSpace(acme.organization.id, { title: 'Birds' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Birds from the guide' })).data;
    const res = await post(p, editor.token, `/spaces/${space.id}/change-requests/${cr.number}/content/import`, {
      url: `${site.origin}/guide/birds/`,
      source: 'website',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 3, totalResources: 3 });
    expect((await api.spaces.getRevisionOfChangeRequestById(space.id, cr.id)).data.id).toBe(res.body.revision);
    const pages = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages as unknown as Tree[];
    expect(outline(pages)).toEqual(['Birds', 'Owls']);
    expect((await api.spaces.listPages(space.id)).data.pages).toEqual([]);
    expect((await api.spaces.listFilesInChangeRequestById(space.id, cr.id)).data.items.map((f) => f.name)).toEqual([
      'feather.png',
    ]);

    await admin.spaces.mergeChangeRequest(space.id, cr.id);
    const live = (await api.spaces.listPages(space.id)).data.pages as unknown as Tree[];
    expect(outline(live)).toEqual(['Birds', 'Owls']);
    const links = await get(editor.token, `/spaces/${space.id}/links?status=ok`);
    expect(
      links.items
        .filter((i: any) => i.targetReference.kind === 'page')
        .map((i: any) => i.targetReference.page)
        .sort(),
    ).toEqual(live.map((pg) => pg.id).sort());
  });

  it('fetches the files a change gives by URL', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Files' })).data;
    const cr = await changeRequestWith(api, space.id, [
      {
        operation: 'insert_files',
        files: [{ ref: 'cover', name: 'cover.png', url: `${site.origin}/guide/img/cover.png` }],
      },
      { operation: 'insert_page', title: 'Cover', document: { markdown: '![The cover](./cover "Our cover")' } },
    ]);
    const file = (await api.spaces.listFilesInChangeRequestById(space.id, cr.id)).data.items[0]!;
    expect([file.name, file.dimensions]).toEqual(['cover.png', { width: 40, height: 20 }]);
    const pg = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages[0]!;
    const doc = (await api.spaces.getPageInChangeRequestById(space.id, cr.id, pg.id, { format: 'markdown' })).data as {
      markdown?: string;
    };
    // A captioned image is stored as GitBook's figure.
    expect(doc.markdown).toBe(
      `<figure><img src="gitbook-file:${file.id}" alt="The cover"><figcaption><p>Our cover</p></figcaption></figure>\n`,
    );
    const refused = await post(p, acme.token, `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'x.png', url: `${site.origin}/guide/img/none.png` }] }],
    });
    expect(refused).toEqual({
      status: 400,
      body: {
        error: { code: 400, message: 'Invalid request: changes.0.files.0.url: could not be fetched (HTTP 404)' },
      },
    });
  });

  it('answers 400 with the reason for a site it cannot read, 403 without the role, 404 for another organization', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Refusals' })).data;
    const at = `/spaces/${space.id}/content/import`;
    expect(await post(p, acme.token, at, { url: `${site.origin}/guide/trees.html`, source: 'website' })).toEqual({
      status: 400,
      body: {
        error: { code: 400, message: `Invalid request: url: ${site.origin}/guide/trees.html answered HTTP 404` },
      },
    });
    expect(await post(p, acme.token, at, { url: `${site.origin}/guide/img/cover.png`, source: 'website' })).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: `Invalid request: url: ${site.origin}/guide/img/cover.png is not an HTML page (image/png)`,
        },
      },
    });
    expect((await post(p, acme.token, at, { url: 'ftp://example.com/', source: 'website' })).status).toBe(400);
    expect((await post(p, acme.token, at, { url: `${site.origin}/guide/`, source: 'file' })).status).toBe(400);
    const denied = await post(p, editor.token, at, { url: `${site.origin}/guide/`, source: 'website' });
    expect(denied).toEqual({
      status: 403,
      body: { error: { code: 403, message: expect.stringContaining('needs the `review` role') } },
    });
    expect((await post(p, reader.token, at, { url: `${site.origin}/guide/`, source: 'website' })).status).toBe(403);
    expect((await post(p, other.token, at, { url: `${site.origin}/guide/`, source: 'website' })).status).toBe(404);
    expect((await api.spaces.listPages(space.id)).data.pages).toEqual([]);
  });
});

describe('website import without QUIRE_ALLOW_PRIVATE_FETCH', () => {
  let guarded: Platform;
  afterAll(async () => {
    await guarded?.stop();
  });

  it('refuses a loopback address with 400', async () => {
    guarded = await startPlatform();
    const boot: Boot = await bootstrap(guarded, 'Acme', 'ann@acme.io');
    const space = (await guarded.client(boot.token).orgs.createSpace(boot.organization.id, { title: 'Guarded' })).data;
    const before = site.requests.length;
    expect(
      await post(guarded, boot.token, `/spaces/${space.id}/content/import`, {
        url: `${site.origin}/guide/`,
        source: 'website',
      }),
    ).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: `Invalid request: url: Refusing to fetch ${site.origin}/guide/: 127.0.0.1 resolves to a loopback or private address; set QUIRE_ALLOW_PRIVATE_FETCH=1 to allow it`,
        },
      },
    });
    expect(site.requests.length).toBe(before);
  });
});
