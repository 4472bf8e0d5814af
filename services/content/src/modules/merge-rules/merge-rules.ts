import type { ChangeRequestMergeRules, MergeRulesStandaloneConfiguration } from '@quire/contracts';
import { conflict, type EntityManager } from '@quire/kit';
import { mergeBaseOf, type IChangeRequest } from '../change-requests/change-request.entity.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { evaluateMergeRules, refusalMessage, type ResolvedMergeRules } from './evaluate.ts';
import { mergeRulesRepository } from './merge-rules.repository.ts';

/** The configuration in force on a space's change requests: its own, or its organization's when it inherits. */
export async function mergeRulesInForce(em: EntityManager, space: ISpace): Promise<ResolvedMergeRules> {
  const own = space.mergeRules ?? { type: 'inherit' };
  if (own.type !== 'inherit') return { source: 'space', config: own as MergeRulesStandaloneConfiguration };
  return { source: 'organization', config: await mergeRulesRepository.ofOrganization(em, space.organizationId) };
}

export interface MergeRulesInput {
  space: ISpace;
  changeRequest: IChangeRequest;
  /** Who merges (or asks whether they may). */
  userId: string;
  /** The space's live revision (read under its lock when merging). */
  mainRevisionId?: string;
}

/** The merge rules in force on a change request, each evaluated for `userId`. */
export async function evaluateChangeRequestMergeRules(
  em: EntityManager,
  input: MergeRulesInput,
): Promise<ChangeRequestMergeRules> {
  const { space, changeRequest: cr } = input;
  const resolved = await mergeRulesInForce(em, space);
  if (resolved.config.type === 'none')
    return evaluateMergeRules(resolved, {
      author: cr.createdBy,
      actor: input.userId,
      subject: cr.subject,
      outdated: false,
      reviews: [],
    });
  return evaluateMergeRules(resolved, {
    author: cr.createdBy,
    actor: input.userId,
    subject: cr.subject,
    outdated: mergeBaseOf(cr) !== (input.mainRevisionId ?? space.revisionId),
    reviews: await mergeRulesRepository.reviewsInForce(em, cr.id, cr.revisionId),
  });
}

/** Refuses (409, naming every unmet rule) the merge of a change request its merge rules do not let `userId` merge. */
export async function assertMergeRulesMet(em: EntityManager, input: MergeRulesInput): Promise<void> {
  const evaluated = await evaluateChangeRequestMergeRules(em, input);
  if (!evaluated.mergeable) throw conflict(refusalMessage(evaluated));
}
