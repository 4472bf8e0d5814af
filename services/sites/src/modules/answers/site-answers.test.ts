import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import type { StreamItem } from '@quire/kit';
import { failureOf } from '@quire/kit/testing';
import { orgActors, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import { chatChunk, indexedSiteWith, useFakeChat } from './answers.fixtures.ts';

const ORG = 'org-ans';
const { admin, reader, stranger } = orgActors(ORG, 'org-far');

/** A fake chat model: streams its answer in chunks, recording what it was sent. */
const chat = {
  requests: [] as { auth: string | undefined; body: Record<string, unknown> }[],
  /** The model writes its last words once this resolves (a test holds it to see the first words arrive first). */
  gate: Promise.resolve(),
  finished: 0,
  breakOff: false,
};
const { env } = useFakeChat(
  (received, req, res) => {
    const body = received as { messages: { content: string }[] };
    chat.requests.push({ auth: req.headers.authorization, body });
    const url = /https?:\/\/\S+\/kayaks/.exec(body.messages[1]!.content)?.[0] ?? 'none';
    const words = ['Paddle ', 'with ', 'both ', 'hands ', `([Kayaks](${url})).`];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chatChunk(words[0]!));
    // A model that breaks off after its first words.
    if (chat.breakOff) return void setTimeout(() => res.destroy(), 20);
    void chat.gate.then(() => {
      for (const w of words.slice(1)) res.write(chatChunk(w));
      res.end('data: [DONE]\n\n');
      chat.finished++;
    });
  },
  { QUIRE_AI_API_KEY: 'sk-test' },
);

// Registered after the hook above: `env` is filled when these platforms start.
const withModel = useSitesAndContent('answers-model', { orgAdmin: true, sitesEnv: env });
const noModel = useSitesAndContent('answers-none', { orgAdmin: true });
// The same endpoint, on loopback, without the operator's leave to reach a private address.
const refused = useSitesAndContent('answers-refused', {
  orgAdmin: true,
  sitesEnv: new Proxy(env, { get: (t, k) => (k === 'QUIRE_AI_ALLOW_PRIVATE' ? '0' : t[k as string]) }),
});

/** The events of a question to the site, as they come (over HTTP, as the gateway reads them). */
async function ask(p: SitesPlatform, input: Record<string, unknown>, as = reader) {
  const events: StreamItem<typeof ops.streamAskInSite>[] = [];
  for await (const e of await p.sites.stream(ops.streamAskInSite, input as never, as)) events.push(e);
  return events;
}

/** A site over a space whose live revision holds these pages (merged through a change request), indexed. */
const siteWith = (p: SitesPlatform, title: string, pages: { title: string; markdown: string }[]) =>
  indexedSiteWith(p, { org: ORG, title, as: admin, reader }, pages);

const PAGES = [
  { title: 'Kayaks', markdown: 'Paddling a kayak on rivers takes both hands.' },
  { title: 'Tents', markdown: 'Pitching a tent in the rain.' },
];

describe('streamAskInSite without a model', () => {
  it('answers with the best passages, each under a link to its page, citing the pages', async () => {
    const { where, spaceId } = await siteWith(noModel, 'Outdoors', PAGES);
    const events = await ask(noModel, { ...where, question: 'kayak rivers', scope: { mode: 'all' } });
    expect(events).toHaveLength(1);
    const { answer } = events[0]!;
    expect(answer.sources).toEqual([
      {
        type: 'page',
        page: expect.any(String),
        revision: expect.any(String),
        space: spaceId,
        sections: [expect.any(String)],
      },
    ]);
    expect(answer.answer!.markdown).toMatch(/^\*\*\[Kayaks\]\(http[^)]*\/kayaks\)\*\*\n\n> .*kayak/i);
    expect(answer.answer!.markdown).not.toMatch(/Tents/);
    expect(answer.followupQuestions).toEqual([]);
  });

  it('nothing matches: an answer without passages; 400 naming the field; 404 to a stranger', async () => {
    const { where } = await siteWith(noModel, 'Outdoors 2', PAGES);
    const none = await ask(noModel, { ...where, question: 'zzyzx quokka', scope: { mode: 'all' } });
    expect(none).toEqual([{ type: 'answer', answer: { followupQuestions: [], sources: [] } }]);
    const bad = await failureOf(ask(noModel, { ...where, question: '', scope: {} }));
    expect([bad.reason, bad.message]).toEqual(['invalid_input', expect.stringMatching(/question/)]);
    const far = await failureOf(ask(noModel, { ...where, question: 'kayak', scope: { mode: 'all' } }, stranger));
    expect(far.reason).toBe('not_found');
  });
});

describe('streamAskInSite with the operator’s model', () => {
  it('streams the model’s answer as it writes (cumulative events) citing the pages, from the passages it was sent', async () => {
    const { where } = await siteWith(withModel, 'Rivers', PAGES);
    const before = chat.requests.length;
    let release!: () => void;
    chat.gate = new Promise<void>((r) => (release = r));
    const finished = chat.finished;
    const stream = await withModel.sites.stream(
      ops.streamAskInSite,
      { ...where, question: 'How do I paddle a kayak?', scope: { mode: 'all' } },
      reader,
    );
    const it = stream[Symbol.asyncIterator]();
    // The first words arrive while the model still holds the rest of its answer.
    const first = await it.next();
    expect(first.done).toBe(false);
    expect(first.value!.answer.answer!.markdown).toBe('Paddle ');
    expect(chat.finished).toBe(finished);
    release();
    const events: StreamItem<typeof ops.streamAskInSite>[] = [first.value!];
    for (let r = await it.next(); !r.done; r = await it.next()) events.push(r.value);
    chat.gate = Promise.resolve();
    const texts = events.map((e) => e.answer.answer!.markdown);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect(texts.at(-1)).toMatch(/^Paddle with both hands \(\[Kayaks\]\(http[^)]*\/kayaks\)\)\.$/);
    // Each event is the answer so far: it extends the one before.
    for (const [i, t] of texts.entries()) if (i > 0) expect(t.startsWith(texts[i - 1]!)).toBe(true);
    for (const e of events) expect(e.answer.sources.map((s) => s.type)).toEqual(['page']);
    // What the model was sent: the model's name, the key, the question and the passage with its page's URL.
    const sent = chat.requests[before]!;
    expect(sent.auth).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({ model: 'fake-model', stream: true });
    const user = (sent.body.messages as { content: string }[])[1]!.content;
    expect(user).toMatch(/Question: How do I paddle a kayak\?/);
    expect(user).toMatch(/\[1\] Kayaks — http\S+\/kayaks\n/);
  });

  it('a model that breaks off: what it wrote, then the passages with their links', async () => {
    const { where } = await siteWith(withModel, 'Rivers 3', PAGES);
    chat.breakOff = true;
    const events = await ask(withModel, { ...where, question: 'kayak', scope: { mode: 'all' } }).finally(
      () => (chat.breakOff = false),
    );
    expect(events[0]!.answer.answer!.markdown).toBe('Paddle ');
    expect(events.at(-1)!.answer.answer!.markdown).toMatch(
      /^Paddle \n\n---\n\n\*\*\[Kayaks\]\(http[^)]*\/kayaks\)\*\*/,
    );
  });

  it('an endpoint on a private network without QUIRE_AI_ALLOW_PRIVATE: the passages, the model never asked', async () => {
    const { where } = await siteWith(refused, 'Rivers 2', PAGES);
    const before = chat.requests.length;
    const events = await ask(refused, { ...where, question: 'kayak', scope: { mode: 'all' } });
    expect(events).toHaveLength(1);
    expect(events[0]!.answer.answer!.markdown).toMatch(/^\*\*\[Kayaks\]/);
    expect(chat.requests.length).toBe(before);
  });
});
