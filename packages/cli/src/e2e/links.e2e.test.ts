import { describe, expect, it } from 'vitest';
import { changeRequestWith, mergeChanges, useCast } from './harness.ts';

const { p, acme, reader, other } = useCast({ reader: ['rita@acme.io', 'read'] });

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The official client has no method for these listings: plain fetch with the bearer token. */
const get = (token: string, path: string) => p.get(token, path);

describe('links and backlinks (through the gateway)', () => {
  it('lists and classifies the links of a revision, filters by status, pages, and lists the backlinks of a file', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Linked' })).data;
    await mergeChanges(
      api,
      space.id,
      [
        { operation: 'insert_page', ref: 'guides', document: { markdown: '# Guides\n\n## Usage\n\nUse it.\n' } },
        { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG_1x1 }] },
      ],
      'Guides',
    );
    const guides = (await api.spaces.listPages(space.id)).data.pages[0]!;
    const file = (await api.spaces.listFiles(space.id)).data.items[0]!;

    const links = [
      `[guides](/pages/${guides.id})`,
      '[missing](/pages/no-such-page)',
      `[usage](/pages/${guides.id}#usage)`,
      `[nowhere](/pages/${guides.id}#nowhere)`,
      '[external](https://example.com/docs)',
      '[in app](http://quire.test/o/acme/s/x)',
      '[again](https://example.com/docs)',
      `![dot](gitbook-file:${file.id})`,
      '![lost](gitbook-file:no-such-file)',
    ].join('\n\n');
    const second = await changeRequestWith(
      api,
      space.id,
      [{ operation: 'insert_page', title: 'Links', document: { markdown: `# Links\n\n${links}\n` } }],
      'Links',
    );

    // In the change request before the merge: its page's links and the file's backlinks.
    const pagesInCr = (await api.spaces.listPagesInChangeRequest(space.id, second.id)).data.pages;
    const linksPage = pagesInCr.find((pg) => pg.title === 'Links')!;
    const inCr = await get(
      acme.token,
      `/spaces/${space.id}/change-requests/${second.id}/content/page/${linksPage.id}/links`,
    );
    expect(inCr.status).toBe(200);
    expect(inCr.body.stats).toEqual({ total: 8, broken: { total: 3, changeRequest: 0 } });
    expect(
      (await get(acme.token, `/spaces/${space.id}/change-requests/${second.id}/content/files/${file.id}/backlinks`))
        .body.items,
    ).toEqual([expect.objectContaining({ kind: 'page', page: linksPage.id })]);
    expect((await get(acme.token, `/spaces/${space.id}/content/files/${file.id}/backlinks`)).body).toEqual({
      count: 0,
      items: [],
    });

    const merged = (await api.spaces.mergeChangeRequest(space.id, second.id)).data;
    const located = {
      organization: acme.organization.id,
      space: space.id,
      versionContext: { type: 'revision', revision: merged.revision },
    };
    const at = { kind: 'page', ...located, page: linksPage.id };

    /** A link of the page's document, where it points and what became of it. */
    const link = (status: string, targetReference: object) => ({
      status,
      relation: 'reference',
      targetReference,
      locationReferences: [at],
    });
    const all = await get(acme.token, `/spaces/${space.id}/links`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      count: 8,
      items: [
        link('ok', { kind: 'page', ...located, page: guides.id }),
        link('broken', { kind: 'page', ...located, page: 'no-such-page' }),
        link('ok', { kind: 'anchor', ...located, page: guides.id, anchor: 'usage' }),
        link('broken', { kind: 'anchor', ...located, page: guides.id, anchor: 'nowhere' }),
        link('ok', { kind: 'url', url: 'https://example.com/docs' }),
        link('in-app', { kind: 'url', url: 'http://quire.test/o/acme/s/x' }),
        link('ok', { kind: 'file', ...located, file: file.id }),
        link('broken', { kind: 'file', ...located, file: 'no-such-file' }),
      ],
      stats: { total: 8, broken: { total: 3, changeRequest: 0 } },
    });

    // The status filter: counts the matching links, stats stay over all of them.
    const broken = (await get(acme.token, `/spaces/${space.id}/links?status=broken`)).body;
    expect(broken.count).toBe(3);
    expect(broken.items.map((l: any) => l.status)).toEqual(['broken', 'broken', 'broken']);
    expect(broken.stats.total).toBe(8);
    expect((await get(acme.token, `/spaces/${space.id}/links?status=in-app`)).body.items).toHaveLength(1);
    expect((await get(acme.token, `/spaces/${space.id}/links?status=nope`)).status).toBe(400);

    // Paging: keyset, every item once, a bad cursor refused.
    const seen: unknown[] = [];
    let page: string | undefined;
    do {
      const res = (await get(acme.token, `/spaces/${space.id}/links?limit=3${page ? `&page=${page}` : ''}`)).body;
      seen.push(...res.items);
      page = res.next?.page;
    } while (page);
    expect(seen).toEqual(all.body.items);
    expect((await get(acme.token, `/spaces/${space.id}/links?page=bm9wZQ`)).status).toBe(400);

    // A page's links; the guides page has none.
    const ofPage = (await get(acme.token, `/spaces/${space.id}/content/page/${linksPage.id}/links?status=ok`)).body;
    expect(ofPage.items).toHaveLength(4);
    expect((await get(acme.token, `/spaces/${space.id}/content/page/${guides.id}/links`)).body).toEqual({
      count: 0,
      items: [],
      stats: { total: 0, broken: { total: 0, changeRequest: 0 } },
    });
    expect((await get(acme.token, `/spaces/${space.id}/content/page/nope/links`)).status).toBe(404);

    // Backlinks of the file, now in main; a missing file is a 404.
    expect((await get(acme.token, `/spaces/${space.id}/content/files/${file.id}/backlinks`)).body).toEqual({
      count: 1,
      items: [at],
    });
    expect((await get(acme.token, `/spaces/${space.id}/content/files/no-such-file/backlinks`)).status).toBe(404);

    // Broken links of open change requests (drafts do not count), over the space or over one page.
    const third = await changeRequestWith(
      api,
      space.id,
      [
        {
          operation: 'insert_page',
          title: 'More',
          document: { markdown: '[gone](/pages/gone-too)\n\n[ok](https://example.com)\n' },
        },
      ],
      'More links',
    );
    expect((await get(acme.token, `/spaces/${space.id}/links`)).body.stats.broken.changeRequest).toBe(0);
    await api.spaces.updateChangeRequestById(space.id, third.id, { status: 'open' } as never);
    expect((await get(acme.token, `/spaces/${space.id}/links`)).body.stats).toEqual({
      total: 8,
      broken: { total: 3, changeRequest: 4 },
    });
    expect(
      (await get(acme.token, `/spaces/${space.id}/content/page/${guides.id}/links`)).body.stats.broken.changeRequest,
    ).toBe(0);
    expect(
      (await get(acme.token, `/spaces/${space.id}/content/page/${linksPage.id}/links`)).body.stats.broken.changeRequest,
    ).toBe(3);

    // A reader reads; another organization sees nothing.
    expect((await get(reader.token, `/spaces/${space.id}/links`)).body.count).toBe(8);
    expect((await get(reader.token, `/spaces/${space.id}/content/files/${file.id}/backlinks`)).body.count).toBe(1);
    expect((await get(other.token, `/spaces/${space.id}/links`)).status).toBe(404);
    expect((await get(other.token, `/spaces/${space.id}/content/page/${linksPage.id}/links`)).status).toBe(404);
    expect((await get(other.token, `/spaces/${space.id}/content/files/${file.id}/backlinks`)).status).toBe(404);
  });

  it('appears in the OpenAPI document with GitBook-style operation ids', async () => {
    const doc = (await (await fetch(`${p.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths['/v1/spaces/{spaceId}/links']?.get?.operationId).toBe('listSpaceLinks');
    expect(doc.paths['/v1/spaces/{spaceId}/content/page/{pageId}/links']?.get?.operationId).toBe('listPageLinks');
    expect(
      doc.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links']?.get?.operationId,
    ).toBe('listPageLinksInChangeRequest');
    expect(doc.paths['/v1/spaces/{spaceId}/content/files/{fileId}/backlinks']?.get?.operationId).toBe(
      'listFileBacklinks',
    );
    expect(
      doc.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks']?.get
        ?.operationId,
    ).toBe('listFileBacklinksInChangeRequest');
  });
});
