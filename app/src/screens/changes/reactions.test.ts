import { describe, expect, it } from 'vitest';
import { type Reaction, reactedBy, reactionLabel, toggleBody, whoReacted } from './reactions.ts';

const user = (id: string, displayName: string) => ({
  user: { object: 'user' as const, id, displayName, urls: { location: '' } },
  reactedAt: '2026-01-01T00:00:00.000Z',
});
const thumbs = { emoji: '👍', count: 2, users: [user('ann', 'Ann'), user('bob', 'Bob')] } as Reaction;

describe('reactions', () => {
  it('names the toggle with the count and whether I reacted', () => {
    expect(reactionLabel(thumbs, 'bob')).toBe('👍 2, you reacted');
    expect(reactionLabel(thumbs, 'cleo')).toBe('👍 2');
    expect(reactionLabel(thumbs, undefined)).toBe('👍 2');
    expect(reactedBy(thumbs, 'ann')).toBe(true);
    expect(reactedBy(thumbs, undefined)).toBe(false);
  });
  it('says who reacted, me as "you"', () => {
    expect(whoReacted(thumbs, 'ann')).toBe('you and Bob');
    expect(whoReacted({ ...thumbs, users: [user('c', 'Cleo'), ...thumbs.users] }, 'x')).toBe('Cleo, Ann and Bob');
    expect(whoReacted({ ...thumbs, users: [user('c', 'Cleo')] }, 'x')).toBe('Cleo');
  });
  it('adds my reaction, or takes it away', () => {
    expect(toggleBody('🎉', false)).toEqual({ addedReactions: ['🎉'] });
    expect(toggleBody('🎉', true)).toEqual({ removedReactions: ['🎉'] });
  });
});
