import { describe, expect, it } from 'vitest';
import { applyMentions, mentionedIds } from './comment.mentions.ts';

describe('comment mentions', () => {
  it('finds the mentioned ids once each, in order', () => {
    expect(mentionedIds('Hi @[Ann](u1) and @[Bob](u2), @[Ann again](u1). [not a mention](u3) @[spaced](a b)')).toEqual([
      'u1',
      'u2',
    ]);
    expect(mentionedIds('no mentions, just an @ and [a](link)')).toEqual([]);
  });

  it('keeps the members mentioned and turns the others into plain text', () => {
    expect(applyMentions('Hi @[Ann](u1), @[Zed](zz) and @[Bob](u2)!', new Set(['u1', 'u2']))).toEqual({
      markdown: 'Hi @[Ann](u1), @Zed and @[Bob](u2)!',
      mentions: ['u1', 'u2'],
    });
    expect(applyMentions('@[Ann](u1) @[Ann](u1)', new Set())).toEqual({ markdown: '@Ann @Ann', mentions: [] });
    expect(applyMentions('plain', new Set(['u1']))).toEqual({ markdown: 'plain', mentions: [] });
  });

  it('leaves code alone: inline code and code blocks hold text, not mentions', () => {
    const markdown = 'Ask @[Ann](u1): `@[Zed](zz)` stays\n\n```md\n@[Bob](u2)\n```\n\nthen @[Zed](zz)';
    expect(mentionedIds(markdown)).toEqual(['u1', 'zz']);
    expect(applyMentions(markdown, new Set(['u1', 'u2']))).toEqual({
      markdown: 'Ask @[Ann](u1): `@[Zed](zz)` stays\n\n```md\n@[Bob](u2)\n```\n\nthen @Zed',
      mentions: ['u1'],
    });
  });
});
