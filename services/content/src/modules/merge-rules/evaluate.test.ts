import { describe, expect, it } from 'vitest';
import { MergeRulesSpaceInputSchema, MergeRulesStandaloneInputSchema, type MergeRule } from '@quire/contracts';
import { evaluateMergeRules, evaluateRule, refusalMessage, type MergeFacts } from './evaluate.ts';

const base: MergeFacts = { author: 'ann', actor: 'ann', subject: 'Fix typos', outdated: false, reviews: [] };
const approved = (...users: string[]) => users.map((reviewer) => ({ reviewer, status: 'approved' as const }));
const rejected = (...users: string[]) => users.map((reviewer) => ({ reviewer, status: 'changes-requested' as const }));

/** Each rule: facts that leave it unmet, then facts that meet it. */
const cases: { rule: MergeRule; refused: Partial<MergeFacts>; satisfied: Partial<MergeFacts>; mentions: string }[] = [
  {
    rule: { rule: 'require_specific_reviewers', users: ['bob', 'cy'] },
    refused: { reviews: approved('bob') },
    satisfied: { reviews: approved('bob', 'cy') },
    mentions: '`cy`',
  },
  {
    rule: { rule: 'require_one_of_specific_reviewers', users: ['bob', 'cy'] },
    refused: { reviews: approved('dan') },
    satisfied: { reviews: approved('cy') },
    mentions: '`bob`, `cy`',
  },
  {
    rule: { rule: 'require_at_least_one_review' },
    refused: { reviews: [] },
    satisfied: { reviews: rejected('bob') },
    mentions: 'review',
  },
  {
    rule: { rule: 'require_at_least_one_approved_review' },
    refused: { reviews: rejected('bob') },
    satisfied: { reviews: approved('bob') },
    mentions: 'approval',
  },
  {
    rule: { rule: 'require_all_reviews_approved' },
    refused: { reviews: [...approved('bob'), ...rejected('cy')] },
    satisfied: { reviews: approved('bob', 'cy') },
    mentions: '`cy`',
  },
  {
    rule: { rule: 'require_up_to_date_change_request' },
    refused: { outdated: true },
    satisfied: { outdated: false },
    mentions: 'updated',
  },
  {
    rule: { rule: 'require_change_request_subject' },
    refused: { subject: '  ' },
    satisfied: { subject: 'Typos' },
    mentions: 'subject',
  },
  {
    rule: { rule: 'require_author_to_merge' },
    refused: { actor: 'bob' },
    satisfied: { actor: 'ann' },
    mentions: '`ann`',
  },
];

describe('merge rules', () => {
  for (const c of cases) {
    it(`${c.rule.rule}: refused, then met`, () => {
      const config = { type: 'rules' as const, rules: [c.rule] };
      const refused = evaluateMergeRules({ source: 'space', config }, { ...base, ...c.refused });
      expect(refused.mergeable).toBe(false);
      expect(refused.rules[0]!.satisfied).toBe(false);
      expect(refusalMessage(refused)).toContain(c.rule.rule);
      expect(refusalMessage(refused)).toContain(c.mentions);
      const met = evaluateMergeRules({ source: 'space', config }, { ...base, ...c.satisfied });
      expect(met).toMatchObject({ mergeable: true, type: 'rules', bypass: false });
      expect(met.rules[0]!.satisfied).toBe(true);
    });
  }

  it("the author's own approval counts for no rule", () => {
    const facts = { ...base, reviews: approved('ann') };
    expect(evaluateRule({ rule: 'require_at_least_one_approved_review' }, facts).satisfied).toBe(false);
    expect(evaluateRule({ rule: 'require_specific_reviewers', users: ['ann'] }, facts).satisfied).toBe(false);
    expect(evaluateRule({ rule: 'require_at_least_one_review' }, facts).satisfied).toBe(false);
  });

  it('allow_bypass lets the named users merge; the others are refused with every unmet rule named', () => {
    const config = {
      type: 'rules' as const,
      rules: [
        { rule: 'allow_bypass', users: ['boss'] },
        { rule: 'require_at_least_one_approved_review' },
        { rule: 'require_change_request_subject' },
      ] as MergeRule[],
    };
    const other = evaluateMergeRules({ source: 'organization', config }, { ...base, subject: '' });
    expect(other).toMatchObject({ mergeable: false, bypass: false, source: 'organization' });
    const message = refusalMessage(other);
    expect(message).toContain("the organization's merge rules");
    expect(message).toContain('require_at_least_one_approved_review');
    expect(message).toContain('require_change_request_subject');
    expect(message).not.toContain('allow_bypass');
    expect(
      evaluateMergeRules({ source: 'organization', config }, { ...base, subject: '', actor: 'boss' }),
    ).toMatchObject({ mergeable: true, bypass: true });
  });

  it('none: always mergeable, no rule', () => {
    expect(evaluateMergeRules({ source: 'space', config: { type: 'none' } }, base)).toEqual({
      source: 'space',
      type: 'none',
      rules: [],
      bypass: false,
      mergeable: true,
    });
  });

  it('the input refuses the rules Quire does not evaluate, a rule given twice and an empty user list, naming the field', () => {
    const issue = (v: unknown) => {
      const r = MergeRulesSpaceInputSchema.safeParse(v);
      return r.success ? undefined : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    };
    expect(issue({ type: 'rules', rules: [{ rule: 'require_agent_review' }] })).toMatch(
      /^rules\.0\.rule: `require_agent_review` is not supported/,
    );
    expect(issue({ type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] })).toMatch(
      /rules\.0\.rule: `custom` is not supported/,
    );
    expect(issue({ type: 'rules', rules: [{ rule: 'require_change_request_description' }] })).toMatch(/not supported/);
    expect(
      issue({ type: 'rules', rules: [{ rule: 'require_author_to_merge' }, { rule: 'require_author_to_merge' }] }),
    ).toMatch(/rules\.1\.rule: .*given twice/);
    expect(issue({ type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [] }] })).toMatch(
      /rules\.0\.users/,
    );
    expect(issue({ type: 'inherit' })).toBeUndefined();
    expect(MergeRulesStandaloneInputSchema.safeParse({ type: 'inherit' }).success).toBe(false);
    expect(
      issue({
        type: 'rules',
        rules: [{ rule: 'require_specific_reviewers', users: ['u1'] }, { rule: 'require_up_to_date_change_request' }],
      }),
    ).toBeUndefined();
  });
});
