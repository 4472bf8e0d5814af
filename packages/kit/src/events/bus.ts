import type { EventEnvelope } from '@quire/contracts';
import type { Pending } from '../metrics.ts';

export type EventHandler = (envelope: EventEnvelope, subject: string) => Promise<void>;

export interface DurableConsumerSpec {
  /** Durable name, unique per consuming service and purpose (`sites-spaces`). */
  name: string;
  /** Subjects below the bus prefix (`content.space.created`); NATS wildcards allowed. */
  subjects: string[];
  handler: EventHandler;
  maxDeliver?: number;
}

/** One event to publish, on its subject below the bus prefix. */
export interface BusMessage {
  subject: string;
  envelope: EventEnvelope;
}

export interface Subscription {
  stop(): Promise<void>;
}

/**
 * Best-effort broadcast of bytes between the processes of a deployment (NATS core subjects beside the event stream,
 * `<prefix>_live.<subject>`): nothing is stored, a message reaches the processes subscribed at that moment, at most
 * once. For live fan-out between replicas (collaborative editing), never for events.
 */
export interface LiveChannel {
  /** Sends `data` to every subscriber of `subject` (this process's own subscriptions included). */
  publish(subject: string, data: Uint8Array): void;
  /** Calls `handler` with each message on `subject` (one token per `.`, NATS wildcards allowed) until stopped. */
  subscribe(subject: string, handler: (data: Uint8Array, subject: string) => void): Subscription;
}

/**
 * How events move between services. JetStream in distributed mode, an in-process bus in standalone
 * mode: same delivery contract (at least once, per-consumer order, retries with backoff). See docs/events.md.
 */
export interface EventBus {
  readonly kind: 'nats' | 'in-process';
  /**
   * Publish once: the envelope id deduplicates (`Nats-Msg-Id`). Resolves once the event cannot be lost any
   * more: stored by JetStream, or, on the in-process bus (nothing of which survives the process), committed
   * by every durable consumer it goes to. Only then may the outbox row be marked published.
   */
  publish(subject: string, envelope: EventEnvelope): Promise<void>;
  /** `publish` of each, in order; resolves once all are as safe as `publish` says (in-process: handled concurrently). */
  publishAll(messages: BusMessage[]): Promise<void>;
  /** A durable, at-least-once consumer; the handler's success acknowledges. */
  consume(spec: DurableConsumerSpec): Promise<Subscription>;
  /** A best-effort live listener from now on (cache eviction). */
  listen(subjects: string[], handler: EventHandler): Promise<Subscription>;
  /** Bytes between the processes of a deployment (NATS only: the in-process bus has no other process to reach). */
  readonly live?: LiveChannel;
  healthy(): boolean;
  /** Events waiting for each durable consumer of this process (metrics). */
  pending(): Promise<Pending[]>;
  close(): Promise<void>;
}

/** NATS subject matching: `*` one token, `>` the rest. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

export const RETRY_BACKOFF_MS = [100, 500, 2_000, 10_000, 30_000];
