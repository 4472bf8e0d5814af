import type {
  ChangeRequestMergeRules,
  MergeRule,
  MergeRuleEvaluation,
  MergeRuleKind,
  MergeRulesStandaloneConfiguration,
} from '@quire/contracts';

/** What the rules are evaluated against: a change request as it is now, and who is merging it. */
export interface MergeFacts {
  /** Who created the change request. */
  author: string;
  /** Who wants to merge it (the caller). */
  actor: string;
  subject: string;
  /** The space's content moved since the change request was created or last updated from it. */
  outdated: boolean;
  /**
   * The reviews in force: each reviewer's latest review, when made on the change request's current revision (a later
   * edit outdates it). The author's own reviews are not counted by any rule.
   */
  reviews: readonly { reviewer: string; status: 'approved' | 'changes-requested' }[];
}

/** The configuration in force on a change request, and where it comes from. */
export interface ResolvedMergeRules {
  source: 'space' | 'organization';
  config: MergeRulesStandaloneConfiguration;
}

const list = (users: readonly string[]) => users.map((u) => `\`${u}\``).join(', ');

/** Whether a rule is met, and a message saying what it asks (and what is missing). */
type Verdict = Pick<MergeRuleEvaluation, 'satisfied' | 'message'>;
const verdict = (satisfied: boolean, message: string): Verdict => ({ satisfied, message });

/** The rules that name users. */
type UsersRule = Extract<MergeRule, { users: unknown }>;
/** The rules about the reviews in force. */
type ReviewsRule =
  | 'require_at_least_one_review'
  | 'require_at_least_one_approved_review'
  | 'require_all_reviews_approved';
/** The rules about the change request itself (and the ones Quire does not evaluate). */
type ChangeRequestRule = Exclude<MergeRuleKind, UsersRule['rule'] | ReviewsRule>;

/** One rule, evaluated: whether it is met and a message saying what it asks (and what is missing). */
export function evaluateRule(rule: MergeRule, facts: MergeFacts): MergeRuleEvaluation {
  const reviews = facts.reviews.filter((r) => r.reviewer !== facts.author);
  const approvers = new Set(reviews.filter((r) => r.status === 'approved').map((r) => r.reviewer));
  switch (rule.rule) {
    case 'require_specific_reviewers':
    case 'require_one_of_specific_reviewers':
    case 'allow_bypass':
      return { rule: rule.rule, users: rule.users, ...usersRule(rule, approvers, facts.actor) };
    case 'require_at_least_one_review':
    case 'require_at_least_one_approved_review':
    case 'require_all_reviews_approved':
      return { rule: rule.rule, ...reviewsRule(rule.rule, reviews, approvers) };
    default:
      return { rule: rule.rule, ...changeRequestRule(rule.rule, facts) };
  }
}

/** A rule naming users: who must approve, or who may bypass the rules. */
function usersRule(rule: UsersRule, approvers: ReadonlySet<string>, actor: string): Verdict {
  switch (rule.rule) {
    case 'require_specific_reviewers': {
      const missing = rule.users.filter((u) => !approvers.has(u));
      return verdict(
        missing.length === 0,
        missing.length
          ? `Approval needed from every one of ${list(rule.users)}; missing: ${list(missing)}`
          : `Approved by ${list(rule.users)}`,
      );
    }
    case 'require_one_of_specific_reviewers': {
      const by = rule.users.filter((u) => approvers.has(u));
      return verdict(
        by.length > 0,
        by.length ? `Approved by ${list(by)}` : `Approval needed from one of ${list(rule.users)}`,
      );
    }
    case 'allow_bypass': {
      const bypass = rule.users.includes(actor);
      return verdict(
        true,
        bypass
          ? 'You may merge without meeting the other rules'
          : `${list(rule.users)} may merge without meeting the other rules`,
      );
    }
  }
}

/** A rule on the reviews in force (the author's own not counted). */
function reviewsRule(rule: ReviewsRule, reviews: MergeFacts['reviews'], approvers: ReadonlySet<string>): Verdict {
  switch (rule) {
    case 'require_at_least_one_review':
      return verdict(
        reviews.length > 0,
        reviews.length
          ? `Reviewed ${reviews.length} time(s)`
          : 'At least one review (by someone other than the author) of the current revision is needed',
      );
    case 'require_at_least_one_approved_review':
      return verdict(
        approvers.size > 0,
        approvers.size
          ? `Approved by ${list([...approvers])}`
          : 'At least one approval (by someone other than the author) of the current revision is needed',
      );
    case 'require_all_reviews_approved': {
      const against = reviews.filter((r) => r.status !== 'approved').map((r) => r.reviewer);
      return verdict(
        against.length === 0,
        against.length
          ? `Every review must approve; changes requested by ${list(against)}`
          : 'No review requests changes',
      );
    }
  }
}

/** A rule on the change request itself: up to date, with a subject, merged by its author. */
function changeRequestRule(rule: ChangeRequestRule, facts: MergeFacts): Verdict {
  switch (rule) {
    case 'require_up_to_date_change_request':
      return verdict(
        !facts.outdated,
        facts.outdated
          ? 'The change request must be updated from the main content first'
          : 'Up to date with the main content',
      );
    case 'require_change_request_subject':
      return verdict(
        facts.subject.trim() !== '',
        facts.subject.trim() ? 'Has a subject' : 'The change request needs a subject',
      );
    case 'require_author_to_merge':
      return verdict(
        facts.actor === facts.author,
        facts.actor === facts.author ? 'You are the author' : `Only the author (\`${facts.author}\`) may merge`,
      );
    // Refused when configured (see UNSUPPORTED_MERGE_RULES); one stored before that, never met, says so.
    case 'require_agent_review':
    case 'require_change_request_description':
    case 'custom':
      return verdict(false, `\`${rule}\` is not supported by Quire: remove it from the merge rules`);
  }
}

/** The rules in force evaluated for the caller: mergeable when each is met, or when an `allow_bypass` rule names them. */
export function evaluateMergeRules({ source, config }: ResolvedMergeRules, facts: MergeFacts): ChangeRequestMergeRules {
  if (config.type === 'none') return { source, type: 'none', rules: [], bypass: false, mergeable: true };
  const rules = config.rules.map((r) => evaluateRule(r, facts));
  const bypass = config.rules.some((r) => r.rule === 'allow_bypass' && r.users.includes(facts.actor));
  return { source, type: 'rules', rules, bypass, mergeable: bypass || rules.every((r) => r.satisfied) };
}

/** The message of a refused merge: every unmet rule, by name. */
export function refusalMessage(evaluated: ChangeRequestMergeRules): string {
  const unmet = evaluated.rules.filter((r) => !r.satisfied);
  const from = evaluated.source === 'organization' ? "the organization's merge rules" : "the space's merge rules";
  return `The change request does not meet ${from}: ${unmet.map((r) => `${r.rule} (${r.message})`).join('; ')}`;
}
