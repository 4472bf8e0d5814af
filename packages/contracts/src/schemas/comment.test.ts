import { describe, expect, it } from 'vitest';
import { CommentQuoteSchema, MAX_COMMENT_QUOTE, ReactionEmojiSchema } from './comment.ts';

describe('reaction emojis', () => {
  it.each(['👍', '🎉', '👍🏽', '❤️', '👨‍👩‍👧', '🇫🇷', '1️⃣'])('accepts %s', (emoji) =>
    expect(ReactionEmojiSchema.safeParse(emoji).success).toBe(true),
  );
  it.each(['', 'a', ':+1:', 'thumbs up', '1', ' 👍', '👍 ', '<script>', 'x'.repeat(20), '👍'.repeat(9)])(
    'refuses %j',
    (emoji) => expect(ReactionEmojiSchema.safeParse(emoji).success).toBe(false),
  );
});

describe('quotes (Quire-only)', () => {
  it('accepts a text with or without its offset', () => {
    expect(CommentQuoteSchema.parse({ text: 'synergistic', offset: 12 })).toEqual({ text: 'synergistic', offset: 12 });
    expect(CommentQuoteSchema.parse({ text: 'x'.repeat(MAX_COMMENT_QUOTE) }).text).toHaveLength(MAX_COMMENT_QUOTE);
  });
  it.each([
    { text: '' },
    { text: 'x'.repeat(MAX_COMMENT_QUOTE + 1) },
    { text: 'a', offset: -1 },
    { text: 'a', offset: 1.5 },
    { text: 'a', node: 'n1' },
    { offset: 3 },
  ])('refuses %j', (quote) => expect(CommentQuoteSchema.safeParse(quote).success).toBe(false));
});
