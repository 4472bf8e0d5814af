import { documentToMarkdown, markdownToDocument } from '@quire/document/model';
import type { OperationInput, ops } from '@quire/contracts';
import { invalid, newId, type StreamItem } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import {
  coalescedEvents,
  modelOf,
  modelText,
  passagesAnswer,
  promptOf,
  type ChatMessage,
  type Passage,
  type StreamedAnswer,
} from './site-answers.ts';

type Input = OperationInput<typeof ops.streamAIResponseInSite>;
type ResponseEvent = StreamItem<typeof ops.streamAIResponseInSite>;

/** Characters of a message kept (GitBook's limit for a text message; a JSON document's markdown is cut there). */
const MESSAGE_MAX = 2_048;
/** Characters of the last message searched with (the site search's limit). */
const QUESTION_MAX = 512;
/** Earlier messages of the conversation given to the model, at most (the latest ones). */
const HISTORY_MAX = 20;

/** The conversation a response answers: its last `user` message, and the user and assistant messages before it. */
export interface Conversation {
  question: string;
  history: ChatMessage[];
}

/** A message's text: as given, or its JSON document's markdown (400 naming the message when it is not a document). */
function textOf(message: Input['input'][number], index: number): string {
  if (typeof message.content === 'string') return message.content;
  try {
    return documentToMarkdown(message.content as never).slice(0, MESSAGE_MAX);
  } catch {
    throw invalid(`Invalid request: input.${index}.content: not a JSON document`);
  }
}

/**
 * The conversation of a request: the last `user` message is the question (400 naming `input` when there is none, or
 * it has no text), the user and assistant messages before it (at most HISTORY_MAX) its context. `developer` messages
 * are not given to the model: the operator's instructions are Quire's.
 */
export function conversationOf(input: Input['input']): Conversation {
  const last = input.findLastIndex((m) => m.role === 'user');
  if (last < 0) throw invalid('Invalid request: input: no `user` message to answer');
  const question = textOf(input[last]!, last).trim();
  if (!question) throw invalid(`Invalid request: input.${last}.content: empty`);
  const history = input
    .slice(0, last)
    .flatMap((m, i): ChatMessage[] =>
      m.role === 'user' || m.role === 'assistant' ? [{ role: m.role, content: textOf(m, i) }] : [],
    )
    .slice(-HISTORY_MAX);
  return { question, history };
}

/** The words the site is searched with: the question (its first QUESTION_MAX characters). */
export const searchedQuestion = (c: Conversation) => c.question.slice(0, QUESTION_MAX);

/** What the model is told: the earlier messages, then the passages and the question (as `streamAskInSite`'s). */
function messagesOf(c: Conversation, passages: Passage[]): ChatMessage[] {
  const [system, user] = promptOf(c.question, passages);
  return [system!, ...c.history, user!];
}

const NOTHING = 'Nothing on this site matches the question.';

type Block = Record<string, unknown>;
const blocksOf = (markdown: string): Block[] => markdownToDocument(markdown).nodes as unknown as Block[];

/**
 * The document events that bring what the client has (`sent`) to the blocks of `markdown`: the last block sent
 * rewritten (`update`) when it grew, then the new blocks (`insert`). Blocks before the last one sent are final.
 */
function documentEvents(messageId: string, sent: Block[], markdown: string): ResponseEvent[] {
  const next = blocksOf(markdown);
  const out: ResponseEvent[] = [];
  const doc = (operation: 'insert' | 'update', blocks: Block[]): ResponseEvent => ({
    type: 'response_document',
    messageId,
    stepIndex: 0,
    operation,
    blocks,
  });
  const last = sent.length - 1;
  if (last >= 0 && next[last] && JSON.stringify(next[last]) !== JSON.stringify(sent[last])) {
    sent[last] = next[last]!;
    out.push(doc('update', [next[last]!]));
  }
  if (next.length > sent.length) {
    const added = next.slice(sent.length);
    sent.push(...added);
    out.push(doc('insert', added));
  }
  return out;
}

/**
 * `streamAIResponseInSite`'s events (GitBook's AIStreamResponse) answering the conversation from the site's best
 * passages: `response_start`, `response_step_start`, the answer as `response_document` events, `response_finish`.
 * With the operator's model: its answer, sent as it writes (the first document event with its first words, then at
 * most one batch every EVENT_INTERVAL_MS and EVENTS_MAX in all); without one (or when it fails before writing) the
 * passages with links to their pages; when it fails after, what it wrote, a rule and the passages. A question nothing
 * on the site matches is answered so, without asking the model. Never an error once the stream started.
 */
export async function* aiResponseEvents(
  ctx: SitesContext,
  conversation: Conversation,
  passages: Passage[],
  previousResponseId: string | undefined,
): AsyncGenerator<ResponseEvent> {
  const messageId = newId();
  const responseId = newId();
  yield { type: 'response_start', messageId };
  yield { type: 'response_step_start', messageId, stepIndex: 0, phase: 'final_answer' };
  const sent: Block[] = [];
  const finish: ResponseEvent = {
    type: 'response_finish',
    messageId,
    responseId,
    response: { id: responseId, ...(previousResponseId ? { previous: previousResponseId } : {}) },
  };
  const model = passages.length
    ? await modelOf(ctx).catch((err: unknown) => {
        ctx.log.warn({ err }, 'site AI responses: the model endpoint could not be resolved; answering with passages');
        return null;
      })
    : null;
  if (!model) {
    yield* documentEvents(messageId, sent, passages.length ? passagesAnswer(passages) : NOTHING);
    yield finish;
    return;
  }
  const answer: StreamedAnswer = { text: '', shown: '' };
  try {
    const texts = modelText(model, messagesOf(conversation, passages));
    yield* coalescedEvents(texts, (text) => documentEvents(messageId, sent, text), answer);
  } catch (err) {
    ctx.log.warn({ err }, 'site AI responses: the model failed; answering with the passages');
    const { text } = answer;
    yield* documentEvents(
      messageId,
      sent,
      text.trim() ? `${text}\n\n---\n\n${passagesAnswer(passages)}` : passagesAnswer(passages),
    );
    yield finish;
    return;
  }
  if (!answer.text.trim()) yield* documentEvents(messageId, sent, passagesAnswer(passages));
  else if (answer.text !== answer.shown) yield* documentEvents(messageId, sent, answer.text);
  yield finish;
}
