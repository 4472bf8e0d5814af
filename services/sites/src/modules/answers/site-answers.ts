import { lookup } from 'node:dns/promises';
import OpenAI from 'openai';
import type { OperationInput, ops } from '@quire/contracts';
import { isPublicAddress, type StreamItem } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { liveRevision } from '../published/content-source.ts';
import { siteSpaceBasePath } from '../published/resolve-url.ts';
import { siteUrlOf } from '../published/site-view.ts';
import { searchSiteSpaces, siteSpacesInScope } from '../published-content/site-search.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { SiteTree } from '../structure/site-tree.ts';

type Input = OperationInput<typeof ops.streamAskInSite>;
type AnswerEvent = StreamItem<typeof ops.streamAskInSite>;

/** The passages an answer is drawn from (the site search's best pages, at most 3 sections each). */
const PASSAGE_PAGES = 6;
/** Characters of the model's answer kept (a longer one is cut). */
const ANSWER_MAX = 8_000;
/** Events of a streamed answer at most: deltas are coalesced into this many cumulative events. */
export const EVENTS_MAX = 64;
/** The least time between two events of a streamed answer (deltas in between are coalesced). */
export const EVENT_INTERVAL_MS = 50;
const MODEL_TIMEOUT_MS = 60_000;

/** The model's answer so far (`text`) and the last of it a client was sent (`shown`). */
export interface StreamedAnswer {
  text: string;
  shown: string;
}

/**
 * The model's growing answer as events, coalesced: `eventsOf` the text so far at most every EVENT_INTERVAL_MS and,
 * counting the events it makes, until EVENTS_MAX - 1 (the last is the caller's: the whole answer when it was not
 * shown). `answer` follows the text and what was shown, also when the model fails midway.
 */
export async function* coalescedEvents<E>(
  texts: AsyncIterable<string>,
  eventsOf: (text: string) => E[],
  answer: StreamedAnswer,
): AsyncGenerator<E> {
  let count = 0;
  let at = 0;
  for await (const t of texts) {
    answer.text = t;
    if (count > 0 && (count >= EVENTS_MAX - 1 || Date.now() - at < EVENT_INTERVAL_MS)) continue;
    answer.shown = t;
    const events = eventsOf(t);
    yield* events;
    count += events.length;
    at = Date.now();
  }
}

export interface Passage {
  title: string;
  url: string;
  page: string;
  space: string;
  revision: string;
  sections: { id: string; title: string; body: string }[];
  description: string;
}

/**
 * The best passages of the site for a question: its search over the site spaces in scope, as the caller sees the site
 * (a reader: only what its published-content token shows it), each with its page's URL on the published site.
 */
export async function passagesFor(ctx: SitesContext, input: Input): Promise<Passage[]> {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
  const tree = await SiteTree.load(ctx.em, site.id);
  const inScope = siteSpacesInScope(tree, input as never, ctx.actor);
  const found = await searchSiteSpaces(ctx, inScope, input.question, PASSAGE_PAGES);
  const siteUrl = siteUrlOf(ctx.urls, site);
  const out: Passage[] = [];
  for (const space of found.items) {
    const ts = inScope.find((t) => t.entity.spaceId === space.id);
    const base = ts ? siteSpaceBasePath(tree, '', ts) : '';
    const revision = (await liveRevision(ctx, space.id)).revision.id;
    for (const page of space.pages)
      out.push({
        title: page.title,
        url: `${siteUrl}${base}/${page.path}`.replace(/\/$/, ''),
        page: page.id,
        space: space.id,
        revision,
        description: page.description,
        sections: page.sections.map((s) => ({ id: s.id, title: s.title, body: s.body })),
      });
  }
  return out.slice(0, PASSAGE_PAGES);
}

const sourcesOf = (passages: Passage[]) =>
  passages.map((p) => ({
    type: 'page' as const,
    page: p.page,
    revision: p.revision,
    space: p.space,
    sections: p.sections.map((s) => s.id),
  }));

const mdText = (s: string) => s.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
const mdUrl = (u: string) => u.replace(/[()\s]/g, encodeURIComponent);

/** The answer without a model: the passages, each under a link to its page. */
export function passagesAnswer(passages: Passage[]): string {
  return passages
    .map((p) => {
      const lines = [`**[${mdText(p.title)}](${mdUrl(p.url)})**`];
      const bodies = p.sections.map((s) => s.body.trim()).filter(Boolean);
      if (!bodies.length && p.description) bodies.push(p.description);
      for (const b of bodies) lines.push(`> ${mdText(b)}`);
      return lines.join('\n\n');
    })
    .join('\n\n');
}

const event = (markdown: string | null, passages: Passage[]): AnswerEvent => ({
  type: 'answer',
  answer: {
    ...(markdown !== null ? { answer: { markdown } } : {}),
    followupQuestions: [],
    sources: sourcesOf(passages),
  },
});

/** What the model is told: answer from these passages only, citing pages by their links. */
export function promptOf(question: string, passages: Passage[]) {
  const context = passages
    .map((p, i) => {
      const text = p.sections.map((s) => `${s.title}: ${s.body}`).join('\n') || p.description;
      return `[${i + 1}] ${p.title} — ${p.url}\n${text}`;
    })
    .join('\n\n');
  return [
    {
      role: 'system' as const,
      content:
        'You answer questions about a documentation site, using only the passages given. Cite the pages you use ' +
        'as markdown links [title](url) with their URLs as given. If the passages do not answer the question, say so.',
    },
    { role: 'user' as const, content: `Passages:\n\n${context}\n\nQuestion: ${question}` },
  ];
}

/** Whether the configured endpoint may be reached: a public host, or any when the operator allows private ones. */
async function endpointAllowed(baseUrl: string, allowPrivate: boolean): Promise<boolean> {
  if (allowPrivate) return true;
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  const addresses = await lookup(host, { all: true });
  return addresses.length > 0 && addresses.every((a) => isPublicAddress(a.address));
}

/** The operator's model (`QUIRE_AI_*`), or null when none is configured or its endpoint may not be reached. */
export async function modelOf(ctx: SitesContext): Promise<{ client: OpenAI; model: string } | null> {
  const { QUIRE_AI_BASE_URL: baseURL, QUIRE_AI_MODEL: model } = ctx.config;
  if (!baseURL || !model) return null;
  if (!(await endpointAllowed(baseURL, ctx.config.QUIRE_AI_ALLOW_PRIVATE))) {
    ctx.log.warn({ baseURL }, 'site answers: the model endpoint is not public (QUIRE_AI_ALLOW_PRIVATE=1 allows it)');
    return null;
  }
  const client = new OpenAI({
    baseURL,
    apiKey: ctx.config.QUIRE_AI_API_KEY ?? 'none',
    timeout: MODEL_TIMEOUT_MS,
    maxRetries: 0,
  });
  return { client, model };
}

/** A message to the model. */
export type ChatMessage = ReturnType<typeof promptOf>[number] | { role: 'assistant'; content: string };

/** The model's answer as it writes it: the text so far after each delta (at most ANSWER_MAX characters). */
export async function* modelText(
  m: { client: OpenAI; model: string },
  messages: ChatMessage[],
): AsyncGenerator<string> {
  const stream = await m.client.chat.completions.create({ model: m.model, messages, stream: true });
  let text = '';
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta?.content;
    if (!delta) continue;
    text = (text + delta).slice(0, ANSWER_MAX);
    yield text;
    if (text.length >= ANSWER_MAX) return;
  }
}

/**
 * `streamAskInSite`'s events for the site's best passages: when the operator configured a model, its answer from
 * those passages, sent as it writes (the first event with its first words; then at most one every
 * EVENT_INTERVAL_MS and EVENTS_MAX in all, each the answer so far, the last the whole of it); without a model (or
 * when it fails before writing) the passages themselves with their links; when it fails after, what it wrote and
 * the passages. Never an error for a question the site cannot answer: an answer without passages.
 */
export async function* answerEvents(
  ctx: SitesContext,
  question: string,
  passages: Passage[],
): AsyncGenerator<AnswerEvent> {
  if (!passages.length) {
    yield event(null, []);
    return;
  }
  const fallback = event(passagesAnswer(passages), passages);
  const model = await modelOf(ctx).catch((err: unknown) => {
    ctx.log.warn({ err }, 'site answers: the model endpoint could not be resolved; answering with the passages');
    return null;
  });
  if (!model) {
    yield fallback;
    return;
  }
  const answer: StreamedAnswer = { text: '', shown: '' };
  try {
    yield* coalescedEvents(modelText(model, promptOf(question, passages)), (text) => [event(text, passages)], answer);
  } catch (err) {
    ctx.log.warn({ err }, 'site answers: the model failed; answering with the passages');
    const { text } = answer;
    yield text.trim() ? event(`${text}\n\n---\n\n${passagesAnswer(passages)}`, passages) : fallback;
    return;
  }
  if (!answer.text.trim()) yield fallback;
  else if (answer.text !== answer.shown) yield event(answer.text, passages);
}
