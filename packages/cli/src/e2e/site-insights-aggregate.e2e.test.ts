import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteInsightsEventType, SiteInsightsQueryRangePreset as Range } from '@gitbook/api';
import { apiError, mergeChanges, useCast } from './harness.ts';

// Issue 42: what readers do on a published site (a view, a search, a rating, a link to a page that does not exist)
// shows in aggregateSiteEvents and listSiteVisitorSegments, read with the official client through the gateway; a
// question to the site is answered by the operator's model as it writes (a fake OpenAI-compatible server here).

/** The fake model: its first words at once, the rest when `gate` resolves. */
const chat = { server: null as Server | null, gate: Promise.resolve(), done: false };
const env: Record<string, string> = {};
beforeAll(async () => {
  chat.server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const write = (w: string) =>
        res.write(
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: w }, finish_reason: null }] })}\n\n`,
        );
      write('Wombats ');
      void chat.gate.then(() => {
        write('dig burrows.');
        res.end('data: [DONE]\n\n');
        chat.done = true;
      });
    });
  });
  await new Promise<void>((r) => chat.server!.listen(0, '127.0.0.1', r));
  Object.assign(env, {
    QUIRE_AI_BASE_URL: `http://127.0.0.1:${(chat.server.address() as AddressInfo).port}/v1`,
    QUIRE_AI_MODEL: 'fake',
    QUIRE_AI_ALLOW_PRIVATE: '1',
  });
});
afterAll(() => new Promise<void>((r) => (chat.server ? chat.server.close(() => r()) : r())));

// Registered after the hook above: `env` is filled when the platform starts.
const { p, acme, bob } = useCast({ bob: ['bob@acme.io', 'read', 'Bob'] }, { env });
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
let org: string;
let siteId: string;
let published: string;

beforeAll(async () => {
  org = acme.organization.id;
  const api = p.client(acme.token);
  const space = (await api.orgs.createSpace(org, { title: 'Handbook' })).data.id;
  await mergeChanges(api, space, [
    { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello wombat readers.' } },
  ]);
  const site = (await api.orgs.createSite(org, { title: 'Insights handbook' } as never)).data;
  await api.orgs.addSpaceToSite(org, site.id, { spaceId: space } as never);
  // Page feedback on (GitBook's default is off): the page has its rating form.
  await api.orgs.updateSiteCustomizationById(org, site.id, { feedback: { enabled: true } } as never);
  const urls = ((await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } }).urls;
  siteId = site.id;
  published = urls.published.replace('http://quire.test', p.url);
}, 180_000);

/** A reader's request to the site (a browser's user agent: robots are not counted). */
const read = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  fetch(url, { ...init, redirect: 'manual', headers: { 'user-agent': FIREFOX, ...init.headers } });

const byType = async () => {
  const res = await p.client(acme.token).orgs.aggregateSiteEvents(org, siteId, {
    range: Range.Last24Hours,
    groupBy: [{ column: 'eventType' }],
    select: [{ column: 'eventsCount' }],
  });
  const [types, counts] = res.data.columns;
  return Object.fromEntries((types!.values as string[]).map((t, i) => [t, counts!.values[i]]));
};

describe('aggregateSiteEvents and listSiteVisitorSegments', () => {
  it('a view, a search, a rating and a broken link on the published site show in the aggregation', async () => {
    const page = await read(published);
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /<form class="page-rating" method="post" action="([^"]+)">/.exec(html)![1]!;
    const token = /name="token" value="([^"]+)"/.exec(html)![1]!;
    const voted = await read(`${p.url}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, rating: 'good' }).toString(),
    });
    expect(voted.status).toBe(200);
    expect(await voted.text()).toContain('Thank you');
    expect((await read(`${published}/~search?q=wombat`)).status).toBe(200);
    expect((await read(`${published}/moved-away`)).status).toBe(404);

    // Views and searches are written in batches, every few seconds.
    let counts = await byType();
    for (let i = 0; i < 60 && !(counts.page_view === 2 && counts.search_type_query === 1); i++) {
      await new Promise((r) => setTimeout(r, 250));
      counts = await byType();
    }
    expect(counts).toEqual({ page_view: 2, page_post_feedback: 1, search_type_query: 1 });

    const broken = await p.client(acme.token).orgs.aggregateSiteEvents(org, siteId, {
      range: Range.Last7Days,
      where: [
        { column: 'eventType', values: [SiteInsightsEventType.PageView] },
        { column: 'page', values: [null] },
      ],
      groupBy: [{ column: 'urlPath' }],
      select: [{ column: 'eventsCount' }],
    });
    expect(broken.data).toEqual({
      columns: [
        { column: 'urlPath', values: [`${new URL(published).pathname}/moved-away`] },
        { column: 'eventsCount', values: [1] },
      ],
    });

    const segments = await p.client(acme.token).orgs.listSiteVisitorSegments(org, siteId);
    expect(segments.data).toEqual({
      count: 1,
      items: [{ title: 'All visitors', claims: {}, events: 4, visitors: 1, sessions: 1 }],
    });
  });

  it('answers 400 for a column Quire does not record, 403 to a `read` member', async () => {
    const geo = p.client(acme.token).orgs.aggregateSiteEvents(org, siteId, {
      range: Range.Last30Days,
      groupBy: [{ column: 'visitorGeoCountry' }],
    });
    expect(await apiError(geo)).toEqual({
      code: 400,
      message: expect.stringMatching(/^Invalid request: groupBy\.0\.column: Quire does not record `visitorGeoCountry`/),
    });
    const member = p.client(bob.token).orgs.aggregateSiteEvents(org, siteId, { range: Range.Last30Days });
    expect((await apiError(member)).code).toBe(403);
    expect((await apiError(p.client(bob.token).orgs.listSiteVisitorSegments(org, siteId))).code).toBe(403);
  });
});

describe("streamAskInSite with the operator's model, through the gateway", () => {
  it('writes the first words of the answer before the model has finished (server-sent events)', async () => {
    const ask = () =>
      fetch(`${p.url}/v1/orgs/${org}/sites/${siteId}/ask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'wombat readers', scope: { mode: 'default' } }),
      });
    // The search index is filled as the merge is processed: wait for the page to be found.
    let found = false;
    for (let i = 0; i < 50 && !found; i++) {
      found = (await (await ask()).text()).includes('Wombats dig burrows.');
      if (!found) await new Promise((r) => setTimeout(r, 200));
    }
    expect(found).toBe(true);

    let release!: () => void;
    chat.gate = new Promise<void>((r) => (release = r));
    chat.done = false;
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value, { stream: true });
    const first = JSON.parse(/^data: (.*)\n\n/.exec(text)![1]!) as { answer: { answer: { markdown: string } } };
    expect(first.answer.answer.markdown).toBe('Wombats ');
    expect(chat.done).toBe(false);
    release();
    for (let r = await reader.read(); !r.done; r = await reader.read())
      text += decoder.decode(r.value, { stream: true });
    expect(chat.done).toBe(true);
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!));
    expect(events.at(-2)).toMatchObject({ type: 'answer', answer: { answer: { markdown: 'Wombats dig burrows.' } } });
    expect(text.endsWith('event: done\ndata: {}\n\n')).toBe(true);
    chat.gate = Promise.resolve();
  });
});
