import { describe, expect, it } from 'vitest';
import { testLogger, eventually } from '../testing/index.ts';
import { subjectMatches } from './bus.ts';
import { InProcessBus } from './in-process-bus.ts';

const envelope = (id: string) => ({ id, type: 'space.created', occurredAt: new Date().toISOString(), data: { n: id } });

describe('subjectMatches follows NATS wildcards', () => {
  it.each([
    ['content.space.*', 'content.space.created', true],
    ['content.>', 'content.space.created', true],
    ['content.space.*', 'content.space', false],
    ['content.space.created', 'content.space.deleted', false],
  ])('%s on %s: %s', (pattern, subject, matches) => expect(subjectMatches(pattern, subject)).toBe(matches));
});

describe('InProcessBus', () => {
  it('delivers in order, retries a failing handler, and drops duplicate ids', async () => {
    const bus = new InProcessBus(testLogger());
    const seen: string[] = [];
    let failures = 1;
    await bus.consume({
      name: 'c',
      subjects: ['content.space.*'],
      handler: async (e) => {
        if (e.id === 'b' && failures-- > 0) throw new Error('transient');
        seen.push(e.id);
      },
    });
    await bus.publish('content.space.created', envelope('a'));
    await bus.publish('content.space.created', envelope('b'));
    await bus.publish('content.space.created', envelope('a'));
    await bus.publish('org-admin.member.added', envelope('x'));
    await eventually(async () => seen.length === 2, 3_000, 'both events');
    expect(seen).toEqual(['a', 'b']);
    await bus.close();
  });

  it('resolves a publish only once the consumer is done with the event, and keeps retrying while the database is away', async () => {
    const bus = new InProcessBus(testLogger());
    const handled: string[] = [];
    let away = 3;
    await bus.consume({
      name: 'c2',
      subjects: ['content.space.*'],
      maxDeliver: 2,
      handler: async (e) => {
        // Three failures because PostgreSQL is unreachable: more than maxDeliver, none counted.
        if (away-- > 0) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        handled.push(e.id);
      },
    });
    await bus.publish('content.space.created', envelope('p'));
    expect(handled).toEqual(['p']);
    // A redelivery of the same id (the relay's retry) resolves as the first delivery did, without handling it again.
    await bus.publishAll([{ subject: 'content.space.created', envelope: envelope('p') }]);
    expect(handled).toEqual(['p']);
    await bus.close();
    await expect(bus.publish('content.space.created', envelope('q'))).rejects.toThrow('bus closed');
  });
});
