import { describe, expect, it } from 'vitest';
import { ReactionEmojiSchema } from './comment.ts';

describe('reaction emojis', () => {
  it.each(['👍', '🎉', '👍🏽', '❤️', '👨‍👩‍👧', '🇫🇷', '1️⃣'])('accepts %s', (emoji) =>
    expect(ReactionEmojiSchema.safeParse(emoji).success).toBe(true),
  );
  it.each(['', 'a', ':+1:', 'thumbs up', '1', ' 👍', '👍 ', '<script>', 'x'.repeat(20), '👍'.repeat(9)])(
    'refuses %j',
    (emoji) => expect(ReactionEmojiSchema.safeParse(emoji).success).toBe(false),
  );
});
