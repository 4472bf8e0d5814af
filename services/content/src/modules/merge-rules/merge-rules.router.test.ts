import { describe, expect, it } from 'vitest';
import { ops, type MergeRulesSpaceConfiguration } from '@quire/contracts';
import type { DomainError } from '@quire/kit';
import { buildSpace, eventually, failureOf, userActor, useTestService } from '@quire/kit/testing';
import { changeRequestCreator } from '../../commands/change-request-writer.ts';
import { reviewSubmitter } from '../../commands/change-request-review-submitter.ts';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { ChangeRequest } from '../change-requests/change-request.entity.ts';
import { Space } from '../spaces/space.entity.ts';
import { evaluateChangeRequestMergeRules } from './merge-rules.ts';
import { mergeRulesRepository } from './merge-rules.repository.ts';

const ORG = 'org-mr';
const ann = userActor('ann', [{ organization: ORG, role: 'admin' }]);
const bob = userActor('bob', [{ organization: ORG, role: 'review' }]);
const editor = userActor('ed', [{ organization: ORG, role: 'edit' }]);

const t = useTestService(contentService, loadContentConfig, { label: 'merge-rules' });

/**
 * Change requests and reviews are written with their commands: the operations' answers present users, which
 * org-admin serves (not running here); the e2e test goes through the API (packages/cli/src/e2e/merge-rules.e2e.test.ts).
 */
const newChangeRequest = (spaceId: string, subject = 'Fix typos', createdBy = 'ann') =>
  t
    .em()
    .transactional(async (tx) =>
      changeRequestCreator(tx, { space: await tx.findOneOrFail(Space, { id: spaceId }), createdBy, subject }),
    );
const review = (
  spaceId: string,
  crId: string,
  reviewer: string,
  status: 'approved' | 'changes-requested' = 'approved',
) =>
  t.em().transactional(async (tx) =>
    reviewSubmitter(tx, {
      space: await tx.findOneOrFail(Space, { id: spaceId }),
      changeRequest: await tx.findOneOrFail(ChangeRequest, { id: crId }),
      reviewer,
      status,
    }),
  );
const merge = (spaceId: string, crId: string, as = ann) =>
  t.call(ops.mergeChangeRequest, { spaceId, changeRequestId: crId }, as);
const setRules = (spaceId: string, mergeRules: MergeRulesSpaceConfiguration) =>
  t.call(ops.updateSpaceById, { spaceId, mergeRules }, ann);
const refusal = async (spaceId: string, crId: string, as = ann) => failureOf<DomainError>(merge(spaceId, crId, as));
const evaluated = async (spaceId: string, crId: string, userId = 'ann') => {
  const em = t.em();
  return evaluateChangeRequestMergeRules(em, {
    space: await em.findOneOrFail(Space, { id: spaceId }),
    changeRequest: await em.findOneOrFail(ChangeRequest, { id: crId }),
    userId,
  });
};

describe('merge rules (content, PostgreSQL)', () => {
  it('a space inherits by default; an organization without rules lets any change request merge', async () => {
    const space = await buildSpace(t, { org: ORG, as: ann });
    expect(space.mergeRules).toEqual({ type: 'inherit' });
    const cr = await newChangeRequest(space.id);
    expect(await evaluated(space.id, cr.id)).toMatchObject({ source: 'organization', type: 'none', mergeable: true });
    expect((await merge(space.id, cr.id)).result).toBe('merge');
  });

  it('require_specific_reviewers: refused (409) naming who is missing, nothing written; merged once all approved', async () => {
    const space = await buildSpace(t, { org: ORG, as: ann });
    const updated = await setRules(space.id, {
      type: 'rules',
      rules: [{ rule: 'require_specific_reviewers', users: ['bob', 'cy'] }],
    });
    expect(updated.mergeRules).toEqual({
      type: 'rules',
      rules: [{ rule: 'require_specific_reviewers', users: ['bob', 'cy'] }],
    });
    expect((await t.call(ops.getSpaceById, { spaceId: space.id }, editor)).mergeRules?.type).toBe('rules');
    const cr = await newChangeRequest(space.id);
    let refused = await refusal(space.id, cr.id);
    expect(refused.reason).toBe('conflict');
    expect(refused.message).toMatch(/space's merge rules: require_specific_reviewers \(.*missing: `bob`, `cy`\)/);
    await review(space.id, cr.id, 'bob');
    await review(space.id, cr.id, 'cy', 'changes-requested');
    refused = await refusal(space.id, cr.id);
    expect(refused.message).toContain('missing: `cy`');
    const row = await t.em().findOneOrFail(ChangeRequest, { id: cr.id });
    expect(row.status).toBe('draft');
    expect((await t.em().findOneOrFail(Space, { id: space.id })).revisionId).toBe(space.revision);
    expect((await evaluated(space.id, cr.id)).rules).toEqual([
      {
        rule: 'require_specific_reviewers',
        users: ['bob', 'cy'],
        satisfied: false,
        message: expect.stringContaining('missing: `cy`'),
      },
    ]);
    await review(space.id, cr.id, 'cy');
    expect(await evaluated(space.id, cr.id)).toMatchObject({ mergeable: true });
    expect((await merge(space.id, cr.id)).result).toBe('merge');
    // A copy of the space keeps its settings, merge rules included.
    expect((await t.call(ops.duplicateSpace, { spaceId: space.id }, ann)).mergeRules).toEqual(updated.mergeRules);
  });

  it('require_author_to_merge and allow_bypass: the reviewer is refused, the author merges; a bypass user merges regardless', async () => {
    const space = await buildSpace(t, { org: ORG, as: ann });
    await setRules(space.id, {
      type: 'rules',
      rules: [{ rule: 'require_author_to_merge' }, { rule: 'require_at_least_one_approved_review' }],
    });
    const cr = await newChangeRequest(space.id);
    await review(space.id, cr.id, 'ann'); // the author's own approval counts for nothing
    const refused = await refusal(space.id, cr.id, bob);
    expect(refused.message).toContain('require_author_to_merge');
    expect(refused.message).toContain('require_at_least_one_approved_review');
    await review(space.id, cr.id, 'bob');
    expect((await refusal(space.id, cr.id, bob)).message).not.toContain('require_at_least_one_approved_review');
    expect((await merge(space.id, cr.id, ann)).result).toBe('merge');

    await setRules(space.id, {
      type: 'rules',
      rules: [{ rule: 'allow_bypass', users: ['bob'] }, { rule: 'require_at_least_one_review' }],
    });
    const other = await newChangeRequest(space.id);
    expect((await refusal(space.id, other.id, ann)).message).toContain('require_at_least_one_review');
    expect(await evaluated(space.id, other.id, 'bob')).toMatchObject({ bypass: true, mergeable: true });
    expect((await merge(space.id, other.id, bob)).result).toBe('merge');
  });

  it("inherit follows the organization's rules, kept from org-admin's events; a space's own rules or none win", async () => {
    const org = 'org-mr-inherit';
    const admin = userActor('ann', [{ organization: org, role: 'admin' }]);
    const space = await buildSpace(t, { org, as: admin });
    const cr = await newChangeRequest(space.id, '');
    const publish = (type: string, data: unknown, at = new Date().toISOString()) =>
      t.svc.deps.bus.publish(`org-admin.organization.${type}`, {
        id: `ev-${type}-${at}`,
        type: `organization.${type}`,
        occurredAt: at,
        data,
      });
    await publish('merge-rules-changed', {
      organization: org,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] },
    });
    await eventually(
      async () => (await mergeRulesRepository.ofOrganization(t.em(), org)).type === 'rules',
      5_000,
      'the organization rules projected',
    );
    // An older event delivered late changes nothing.
    await t
      .em()
      .transactional((tx) =>
        mergeRulesRepository.setOrganization(tx, org, { type: 'none' }, new Date(Date.now() - 60_000).toISOString()),
      );
    expect((await mergeRulesRepository.ofOrganization(t.em(), org)).type).toBe('rules');
    const refused = await failureOf<DomainError>(
      t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin),
    );
    expect(refused.message).toMatch(/organization's merge rules: require_change_request_subject/);
    expect(await evaluated(space.id, cr.id)).toMatchObject({ source: 'organization', type: 'rules', mergeable: false });

    await t.call(ops.updateSpaceById, { spaceId: space.id, mergeRules: { type: 'none' } }, admin);
    expect(await evaluated(space.id, cr.id)).toMatchObject({ source: 'space', type: 'none', mergeable: true });
    await t.call(ops.updateSpaceById, { spaceId: space.id, mergeRules: { type: 'inherit' } }, admin);
    expect((await evaluated(space.id, cr.id)).mergeable).toBe(false);

    await publish('deleted', { organization: org });
    await eventually(
      async () => (await mergeRulesRepository.ofOrganization(t.em(), org)).type === 'none',
      5_000,
      'the organization rules removed',
    );
  });

  it('setting rules: 400 naming the field for a rule Quire does not evaluate, 403 below space admin', async () => {
    const space = await buildSpace(t, { org: ORG, as: ann });
    const bad = await failureOf<DomainError>(
      t.call(
        ops.updateSpaceById,
        { spaceId: space.id, mergeRules: { type: 'rules', rules: [{ rule: 'require_agent_review' }] } } as never,
        ann,
      ),
    );
    expect(bad.reason).toBe('invalid_input');
    expect(bad.message).toMatch(/mergeRules\.rules\.0\.rule: `require_agent_review` is not supported/);
    const denied = await failureOf<DomainError>(
      t.call(ops.updateSpaceById, { spaceId: space.id, mergeRules: { type: 'none' } }, editor),
    );
    expect(denied.reason).toBe('forbidden');
    const events = await t.outboxEvents('space.updated');
    expect(events.some((e) => (e.data as { space: string; fields: string[] }).space === space.id)).toBe(false);
  });
});
