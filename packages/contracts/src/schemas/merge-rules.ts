import { z } from 'zod';

/**
 * Merge rules, in GitBook's wire format (`MergeRule`, `MergeRulesConfiguration*`, `MergeRulesStandaloneConfiguration`,
 * `MergeRulesSpaceConfiguration`): an organization holds a standalone configuration (`rules` or `none`), a space holds
 * one too or `inherit`s its organization's. They are evaluated when a change request is merged (docs/merge-rules.md).
 */

/** Most rules any configuration may hold (a limit of Quire's). */
export const MAX_MERGE_RULES = 20;
/** Most users one rule may name (a limit of Quire's). */
export const MAX_MERGE_RULE_USERS = 50;

const UsersSchema = z
  .array(z.string().min(1).max(100).describe('ID of a user'))
  .min(1)
  .max(MAX_MERGE_RULE_USERS)
  .describe(`List of user IDs (1..${MAX_MERGE_RULE_USERS})`);

/** The rules that take no argument, as GitBook lists them. */
export const SIMPLE_MERGE_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_agent_review',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
  'require_author_to_merge',
] as const;

/**
 * Rules GitBook lists that Quire does not evaluate, refused (400) rather than stored and never met: Quire has no
 * review agent, no description on a change request, and no expression language for `custom` rules.
 */
export const UNSUPPORTED_MERGE_RULES: Record<string, string> = {
  require_agent_review: 'Quire has no review agent',
  require_change_request_description: 'change requests have no description in Quire',
  custom: 'custom expressions are not evaluated by Quire',
};

export const MergeRuleSchema = z
  .discriminatedUnion('rule', [
    z.object({
      rule: z.literal('require_specific_reviewers').describe('Every listed user has approved the change request'),
      users: UsersSchema,
    }),
    z.object({
      rule: z
        .literal('require_one_of_specific_reviewers')
        .describe('At least one listed user has approved the change request'),
      users: UsersSchema,
    }),
    z.object({
      rule: z.literal('allow_bypass').describe('The listed users may merge even when other rules are not met'),
      users: UsersSchema,
    }),
    z.object({ rule: z.enum(SIMPLE_MERGE_RULES).describe('A rule without argument') }),
    z.object({
      rule: z.literal('custom').describe('A rule written as an expression (not evaluated by Quire: refused)'),
      expression: z.string().max(1024).describe('Expression to evaluate'),
      message: z.string().max(1024).optional().describe('Message shown when the expression evaluates to false'),
    }),
  ])
  .describe('MergeRule');
export type MergeRule = z.infer<typeof MergeRuleSchema>;
export type MergeRuleKind = MergeRule['rule'];

export const MergeRulesConfigurationRulesSchema = z
  .object({
    type: z.literal('rules').describe('The merge rules are composed of individual rules that must all pass'),
    rules: z.array(MergeRuleSchema).max(MAX_MERGE_RULES).describe(`The rules (at most ${MAX_MERGE_RULES})`),
  })
  .describe('MergeRulesConfigurationRules');
export const MergeRulesConfigurationNoneSchema = z
  .object({
    type: z.literal('none').describe('The merge rules are disabled: change requests can be merged without review'),
  })
  .describe('MergeRulesConfigurationNone');
export const MergeRulesConfigurationInheritSchema = z
  .object({ type: z.literal('inherit').describe("The merge rules are the organization's") })
  .describe('MergeRulesConfigurationInherit');

export const MergeRulesStandaloneConfigurationSchema = z
  .discriminatedUnion('type', [MergeRulesConfigurationRulesSchema, MergeRulesConfigurationNoneSchema])
  .describe('MergeRulesStandaloneConfiguration');
export type MergeRulesStandaloneConfiguration = z.infer<typeof MergeRulesStandaloneConfigurationSchema>;

export const MergeRulesSpaceConfigurationSchema = z
  .discriminatedUnion('type', [
    MergeRulesConfigurationInheritSchema,
    MergeRulesConfigurationRulesSchema,
    MergeRulesConfigurationNoneSchema,
  ])
  .describe('MergeRulesSpaceConfiguration');
export type MergeRulesSpaceConfiguration = z.infer<typeof MergeRulesSpaceConfigurationSchema>;

/** Refuses (with a message naming the rule) the rules Quire does not evaluate, and a rule kind given twice. */
function refuseUnsupported(config: { type: string; rules?: MergeRule[] }, ctx: z.RefinementCtx): void {
  if (config.type !== 'rules' || !config.rules) return;
  const seen = new Set<string>();
  config.rules.forEach((r, i) => {
    const why = UNSUPPORTED_MERGE_RULES[r.rule];
    if (why)
      ctx.addIssue({ code: 'custom', path: ['rules', i, 'rule'], message: `\`${r.rule}\` is not supported: ${why}` });
    else if (seen.has(r.rule))
      ctx.addIssue({ code: 'custom', path: ['rules', i, 'rule'], message: `\`${r.rule}\` is given twice` });
    seen.add(r.rule);
  });
}

/** What `PATCH /orgs/{organizationId}` accepts as `mergeRules`. */
export const MergeRulesStandaloneInputSchema = MergeRulesStandaloneConfigurationSchema.superRefine(refuseUnsupported);
/** What `PATCH /spaces/{spaceId}` accepts as `mergeRules`. */
export const MergeRulesSpaceInputSchema = MergeRulesSpaceConfigurationSchema.superRefine(refuseUnsupported);

/** One rule of the configuration in force, evaluated for a change request and the caller. */
export const MergeRuleEvaluationSchema = z
  .object({
    rule: z.string().describe('The rule (`MergeRule.rule`)'),
    users: z.array(z.string()).optional().describe('The users the rule names, for the rules that name users'),
    satisfied: z.boolean().describe('Whether the rule is met now'),
    message: z.string().describe('What the rule asks, and what is missing when it is not met'),
  })
  .describe('MergeRuleEvaluation');
export type MergeRuleEvaluation = z.infer<typeof MergeRuleEvaluationSchema>;

/**
 * The merge rules in force on a change request and whether the caller may merge it now (a Quire extension of
 * ChangeRequest, returned when fetching one change request, as GitBook does for `imports`).
 */
export const ChangeRequestMergeRulesSchema = z
  .object({
    source: z
      .enum(['space', 'organization'])
      .describe("Where the rules in force come from (`organization` when the space's are `inherit`)"),
    type: z.enum(['rules', 'none']).describe('`none`: no rule, `rules`: every rule below must be met'),
    rules: z.array(MergeRuleEvaluationSchema).describe('The rules in force, each evaluated'),
    bypass: z.boolean().describe('True when the caller is named by an `allow_bypass` rule'),
    mergeable: z.boolean().describe('True when the merge rules let the caller merge now (every rule met, or bypass)'),
  })
  .describe('ChangeRequestMergeRules');
export type ChangeRequestMergeRules = z.infer<typeof ChangeRequestMergeRulesSchema>;
