import { describe, expect, it } from 'vitest';
import { ApiError, csrfToken, pathOf, request, seg, type Transport, urlOf } from './client.ts';
import { apiOf } from './endpoints.ts';

/** A transport answering `answer` and recording what was sent. */
function recording(answer: () => Response) {
  const sent: { url: string; init: RequestInit }[] = [];
  let signedOut = 0;
  const t: Transport = {
    fetch: async (url, init) => {
      sent.push({ url, init });
      return answer();
    },
    csrf: () => 'tok',
    signedOut: () => {
      signedOut++;
    },
  };
  return { t, sent, signedOut: () => signedOut };
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the API client', () => {
  it('sends the CSRF header and JSON body to /v1, with encoded segments', async () => {
    const r = recording(() => json(201, { id: 's1', title: 'A/B' }));
    const space = await apiOf(r.t).createSpace('org/1', { title: 'A/B' });
    expect(space.title).toBe('A/B');
    expect(r.sent[0]!.url).toBe('/v1/orgs/org%2F1/spaces');
    expect(r.sent[0]!.init.method).toBe('POST');
    expect(r.sent[0]!.init.headers).toMatchObject({ 'x-quire-csrf': 'tok', 'content-type': 'application/json' });
    expect(r.sent[0]!.init.body).toBe('{"title":"A/B"}');
  });

  it('keeps the slashes of a page path and asks for the document', async () => {
    const r = recording(() => json(200, { id: 'p', title: 'P' }));
    await apiOf(r.t).pageByPath({ space: 's', changeRequest: '3' }, 'guides/setup ü');
    expect(r.sent[0]!.url).toBe('/v1/spaces/s/change-requests/3/content/path/guides/setup%20%C3%BC?format=document');
  });

  it("throws the API's error sentence, and tells the app a 401 ended the session", async () => {
    const r = recording(() => json(403, { error: { code: 403, message: 'You cannot edit this space' } }));
    await expect(request(r.t, 'DELETE', '/spaces/x')).rejects.toEqual(new ApiError(403, 'You cannot edit this space'));
    const out = recording(() => json(401, { error: { code: 401, message: 'Authentication required' } }));
    await expect(request(out.t, 'GET', '/user')).rejects.toBeInstanceOf(ApiError);
    expect(out.signedOut()).toBe(1);
    const proxy = recording(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(request(proxy.t, 'GET', '/user')).rejects.toEqual(new ApiError(502, '502 Bad Gateway'));
  });

  it('follows list pages until the last one', async () => {
    const answers = [json(200, { items: [{ id: 'a' }], next: { page: 'p2' } }), json(200, { items: [{ id: 'b' }] })];
    const r = recording(() => answers.shift()!);
    expect((await apiOf(r.t).spaces('o')).map((s) => s.id)).toEqual(['a', 'b']);
    expect(r.sent.map((s) => s.url)).toEqual(['/v1/orgs/o/spaces?limit=100', '/v1/orgs/o/spaces?limit=100&page=p2']);
  });

  it('builds URLs and reads the CSRF meta tag', () => {
    expect(urlOf('/x', { a: 1, b: undefined, c: 'd e' })).toBe('/v1/x?a=1&c=d+e');
    expect(seg('a/b?c')).toBe('a%2Fb%3Fc');
    expect(pathOf('a/b c')).toBe('a/b%20c');
    const doc = { querySelector: () => ({ getAttribute: () => 'secret' }) } as unknown as Document;
    expect(csrfToken(doc)).toBe('secret');
  });
});
