import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { mergeRulesRepository } from './merge-rules.repository.ts';

export const ORGANIZATION_MERGE_RULES_CONSUMER = 'content-organization-merge-rules';

/**
 * Keeps the organizations' merge rules (owned by org-admin, shown and set on the Organization) where merges read
 * them: one ordered consumer of `organization.merge-rules-changed` and `organization.deleted`.
 */
export const organizationMergeRulesConsumer = defineConsumer(
  ORGANIZATION_MERGE_RULES_CONSUMER,
  [Events.organizationMergeRulesChanged, Events.organizationDeleted],
  {
    'organization.merge-rules-changed': (e, em) =>
      mergeRulesRepository.setOrganization(em, e.data.organization, e.data.mergeRules, e.occurredAt),
    'organization.deleted': (e, em) => mergeRulesRepository.removeOrganization(em, e.data.organization),
  },
  { ordered: true },
);
