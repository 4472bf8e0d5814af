import { MergeRulesStandaloneConfigurationSchema, type MergeRulesStandaloneConfiguration } from '@quire/contracts';
import { sql, sqlRun, type EntityManager } from '@quire/kit';
import type { MergeFacts } from './evaluate.ts';

const NONE: MergeRulesStandaloneConfiguration = { type: 'none' };

/**
 * The organizations' merge rules, projected from org-admin's `organization.merge-rules-changed` events (`event_at`
 * refuses an older event delivered late), and the reviews the rules read.
 */
export const mergeRulesRepository = {
  async setOrganization(
    em: EntityManager,
    organizationId: string,
    rules: MergeRulesStandaloneConfiguration,
    at: string,
  ): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.organization_merge_rules (organization_id, merge_rules, event_at) values (?, ?::jsonb, ?)
       on conflict (organization_id) do update set merge_rules = excluded.merge_rules, event_at = excluded.event_at
       where organization_merge_rules.event_at <= excluded.event_at`,
      [organizationId, JSON.stringify(rules), at],
    );
  },

  async removeOrganization(em: EntityManager, organizationId: string): Promise<void> {
    await sqlRun(em, `delete from :schema.organization_merge_rules where organization_id = ?`, [organizationId]);
  },

  /** An organization's merge rules; `none` when it never set any. */
  async ofOrganization(em: EntityManager, organizationId: string): Promise<MergeRulesStandaloneConfiguration> {
    const [row] = await sql<{ merge_rules: unknown }>(
      em,
      `select merge_rules from :schema.organization_merge_rules where organization_id = ?`,
      [organizationId],
    );
    if (!row) return NONE;
    const parsed = MergeRulesStandaloneConfigurationSchema.safeParse(
      typeof row.merge_rules === 'string' ? JSON.parse(row.merge_rules) : row.merge_rules,
    );
    return parsed.success ? parsed.data : NONE;
  },

  /** The reviews in force on a change request: each reviewer's latest one, when made on its revision `revisionId`. */
  async reviewsInForce(em: EntityManager, changeRequestId: string, revisionId: string): Promise<MergeFacts['reviews']> {
    const rows = await sql<{ reviewer: string; status: 'approved' | 'changes-requested'; revision_id: string }>(
      em,
      `select distinct on (reviewer) reviewer, status, revision_id from :schema.change_request_review
       where change_request_id = ? order by reviewer, created_at desc, id desc`,
      [changeRequestId],
    );
    return rows.filter((r) => r.revision_id === revisionId).map((r) => ({ reviewer: r.reviewer, status: r.status }));
  },
};
