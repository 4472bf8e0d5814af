import { describe, expect, it } from 'vitest';
import { testLogger, eventually } from '../testing/index.ts';
import { subjectMatches } from './bus.ts';
import { InProcessBus } from './in-process-bus.ts';

const envelope = (id: string) => ({ id, type: 'space.created', occurredAt: new Date().toISOString(), data: { n: id } });

describe('subjectMatches', () => {
  it('follows NATS wildcards', () => {
    expect(subjectMatches('content.space.*', 'content.space.created')).toBe(true);
    expect(subjectMatches('content.>', 'content.space.created')).toBe(true);
    expect(subjectMatches('content.space.*', 'content.space')).toBe(false);
    expect(subjectMatches('content.space.created', 'content.space.deleted')).toBe(false);
  });
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
});
