import { describe, expect, it } from 'vitest';
import { GitBookAPI } from '@gitbook/api';
import { apiError, useCast } from './harness.ts';

// Issue 42: reusable content through the gateway with the official client: written in a change request (Quire's
// `insert_reusable_content` change: GitBook's API has no write of its own), merged, read at the merged revision with a
// member's token and a site reader's, and shown where a page includes it on the published site.

const { p, acme, other } = useCast({});

const NOTE = 'Back up your data before you upgrade: a < b & c.\n';

describe('reusable content', () => {
  it('is created in a change request, merged, read at the revision and shown on the published page', async () => {
    const org = acme.organization.id;
    const api = p.client(acme.token);
    const spaceId = (await api.orgs.createSpace(org, { title: 'Runbook' })).data.id;
    const cr = (await api.spaces.createChangeRequest(spaceId, { subject: 'Upgrade note' })).data;
    const write = (changes: unknown[]) => api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes } as never);
    await write([{ operation: 'insert_reusable_content', title: 'Upgrade note', document: { markdown: NOTE } }]);
    const [note] = (await api.spaces.getRevisionOfChangeRequestById(spaceId, cr.id)).data.reusableContents;
    expect(note).toMatchObject({ id: expect.any(String), title: 'Upgrade note', document: expect.any(String) });
    const inCr = (await api.spaces.getReusableContentInChangeRequestById(spaceId, cr.id, note!.id)).data;
    expect(inCr).toEqual(note);
    await write([
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } },
      {
        operation: 'insert_page',
        title: 'Upgrade',
        document: { markdown: `Read this first.\n\n{% include "${note!.id}" %}\n` },
      },
    ]);
    // Not live until merged.
    expect((await apiError(api.spaces.getReusableContentById(spaceId, note!.id))).code).toBe(404);

    const merged = (await api.spaces.mergeChangeRequest(spaceId, cr.id)).data;
    expect(merged.result).toBe('merge');
    const revision = merged.revision;
    expect((await api.spaces.getReusableContentInRevisionById(spaceId, revision, note!.id)).data).toEqual(note);
    expect((await api.spaces.getReusableContentById(spaceId, note!.id)).data).toEqual(note);
    const doc = (await api.spaces.getReusableContentDocumentInRevisionById(spaceId, revision, note!.id)).data;
    expect(JSON.stringify(doc)).toContain('Back up your data before you upgrade: a < b & c.');
    const upgrade = (await api.spaces.listPages(spaceId)).data.pages.find((pg) => pg.title === 'Upgrade')!;
    const pageDoc = await api.spaces.getPageDocumentInRevisionById(spaceId, revision, upgrade.id, {
      dereferenced: 'reusable-contents',
    });
    expect(JSON.stringify(pageDoc.data)).toContain('Back up your data before you upgrade');
    expect(JSON.stringify(pageDoc.data)).not.toContain('"reusable-content"');
    // Another organization's token is told nothing.
    expect((await apiError(p.client(other.token).spaces.getReusableContentById(spaceId, note!.id))).code).toBe(404);

    // Published: the page shows the reusable content's text, escaped, where the page includes it.
    const site = (await api.orgs.createSite(org, { title: 'Runbook site' } as never)).data;
    await api.orgs.addSpaceToSite(org, site.id, { spaceId } as never);
    const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } };
    const pageUrl = `${published.urls.published}/upgrade`;
    const res = await fetch(pageUrl.replace('http://quire.test', p.url));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Read this first.');
    expect(html).toContain('Back up your data before you upgrade: a &lt; b &amp; c.');
    expect(html.indexOf('Read this first.')).toBeLessThan(html.indexOf('Back up your data'));

    // The site's reader (GitBook's published-content token) reads it as GitBook's renderer does.
    const found = await new GitBookAPI({ endpoint: p.url }).urls.resolvePublishedContentByUrl({ url: pageUrl });
    const reader = p.client((found.data as { apiToken: string }).apiToken).spaces;
    expect((await reader.getReusableContentById(spaceId, note!.id)).data).toEqual(note);
    const readerDoc = await reader.getReusableContentDocumentInRevisionById(spaceId, revision, note!.id);
    expect(JSON.stringify(readerDoc.data)).toContain('Back up your data');
  }, 120_000);
});
