import { describe, expect, it } from 'vitest';
import { eventually } from '@quire/kit/testing';
import { apiError, type Seat, useCast } from './harness.ts';

const { p, acme, ed, rev1, rev2 } = useCast({
  ed: ['ed@acme.io', 'edit'],
  rev1: ['rev1@acme.io', 'review'],
  rev2: ['rev2@acme.io', 'review'],
});

const api = (who: Seat) => p.client(who.token);
/** A space of Acme with the given merge rules (unchanged: `inherit`). */
async function spaceWith(title: string, mergeRules?: unknown) {
  const space = (await api(acme).orgs.createSpace(acme.organization.id, { title })).data;
  if (mergeRules)
    expect((await api(acme).spaces.updateSpaceById(space.id, { mergeRules } as never)).data.mergeRules).toEqual(
      mergeRules,
    );
  return space;
}
const changeRequest = async (spaceId: string, subject?: string, author = ed) =>
  (await api(author).spaces.createChangeRequest(spaceId, subject === undefined ? {} : { subject })).data;
const approve = (who: Seat, spaceId: string, crId: string, status: 'approved' | 'changes-requested' = 'approved') =>
  api(who).spaces.submitChangeRequestReview(spaceId, crId, { status } as never);
const merge = (who: Seat, spaceId: string, crId: string) => api(who).spaces.mergeChangeRequest(spaceId, crId);
/** The merge rules shown on the change request, for the caller. */
const shown = async (who: Seat, spaceId: string, crId: string) =>
  ((await api(who).spaces.getChangeRequestById(spaceId, crId)).data as { mergeRules?: any }).mergeRules;

describe('merge rules through the official client', () => {
  it('require_specific_reviewers, require_change_request_subject, require_up_to_date_change_request: refused (409) naming each, then met', async () => {
    const rules = [
      { rule: 'require_specific_reviewers', users: [rev1.user.id, rev2.user.id] },
      { rule: 'require_change_request_subject' },
      { rule: 'require_up_to_date_change_request' },
    ];
    const space = await spaceWith('Strict', { type: 'rules', rules });
    const first = await changeRequest(space.id, 'First');
    const second = await changeRequest(space.id);

    await approve(rev1, space.id, first.id);
    const refused = await apiError(merge(acme, space.id, first.id));
    expect(refused).toEqual({
      code: 409,
      message: expect.stringContaining(`require_specific_reviewers (Approval needed from every one of`),
    });
    expect(refused.message).toContain(`missing: \`${rev2.user.id}\``);
    expect(refused.message).not.toContain('require_change_request_subject');
    // The raw error body is GitBook's shape.
    const raw = await fetch(`${p.url}/v1/spaces/${space.id}/change-requests/${first.id}/merge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.token}` },
    });
    expect(raw.status).toBe(409);
    expect(await raw.json()).toEqual({ error: { code: 409, message: refused.message } });
    await approve(rev2, space.id, first.id);
    expect(await shown(acme, space.id, first.id)).toMatchObject({ source: 'space', type: 'rules', mergeable: true });
    expect((await merge(acme, space.id, first.id)).data.result).toBe('merge');

    // The second change request has no subject, no review, and main moved since it was created.
    const view = await shown(acme, space.id, second.id);
    expect(view).toMatchObject({ source: 'space', type: 'rules', bypass: false, mergeable: false });
    expect(view.rules.map((r: { rule: string; satisfied: boolean }) => [r.rule, r.satisfied])).toEqual([
      ['require_specific_reviewers', false],
      ['require_change_request_subject', false],
      ['require_up_to_date_change_request', false],
    ]);
    const message = (await apiError(merge(acme, space.id, second.id))).message;
    for (const r of rules) expect(message).toContain(r.rule);
    await api(ed).spaces.updateChangeRequestById(space.id, second.id, { subject: 'Second' });
    expect((await api(ed).spaces.updateChangeRequest(space.id, second.id)).data.result).toBe('update');
    await approve(rev1, space.id, second.id);
    await approve(rev2, space.id, second.id);
    expect((await shown(acme, space.id, second.id)).rules.every((r: { satisfied: boolean }) => r.satisfied)).toBe(true);
    expect((await merge(acme, space.id, second.id)).data.result).toBe('merge');
  });

  it('require_one_of_specific_reviewers, require_all_reviews_approved, require_at_least_one_review, require_author_to_merge', async () => {
    const space = await spaceWith('Reviewed', {
      type: 'rules',
      rules: [
        { rule: 'require_one_of_specific_reviewers', users: [rev2.user.id] },
        { rule: 'require_all_reviews_approved' },
        { rule: 'require_at_least_one_review' },
        { rule: 'require_author_to_merge' },
      ],
    });
    // Written by a reviewer (members who may merge): their own review counts for no rule.
    const cr = await changeRequest(space.id, 'Reviewed', rev1);
    await approve(rev1, space.id, cr.id);
    let message = (await apiError(merge(acme, space.id, cr.id))).message;
    expect(message).toMatch(/require_one_of_specific_reviewers.*require_at_least_one_review.*require_author_to_merge/);
    expect(message).not.toContain('require_all_reviews_approved');
    await approve(rev2, space.id, cr.id, 'changes-requested');
    message = (await apiError(merge(rev1, space.id, cr.id))).message;
    expect(message).toContain(
      `require_all_reviews_approved (Every review must approve; changes requested by \`${rev2.user.id}\`)`,
    );
    expect(message).toContain('require_one_of_specific_reviewers');
    expect(message).not.toContain('require_at_least_one_review');
    expect(message).not.toContain('require_author_to_merge');
    await approve(rev2, space.id, cr.id);
    expect(await apiError(merge(acme, space.id, cr.id))).toEqual({
      code: 409,
      message: expect.stringMatching(/: require_author_to_merge \(Only the author/),
    });
    expect((await merge(rev1, space.id, cr.id)).data.result).toBe('merge');
  });

  it('inherit follows the organization (PATCH /orgs/{id}), allow_bypass lets its users merge, none needs nothing', async () => {
    const orgRules = {
      type: 'rules',
      rules: [{ rule: 'allow_bypass', users: [acme.user.id] }, { rule: 'require_at_least_one_approved_review' }],
    };
    const org = (await api(acme).orgs.updateOrganizationById(acme.organization.id, { mergeRules: orgRules } as never))
      .data as { mergeRules?: unknown };
    expect(org.mergeRules).toEqual(orgRules);
    expect(
      ((await api(ed).orgs.getOrganizationById(acme.organization.id)).data as { mergeRules?: unknown }).mergeRules,
    ).toEqual(orgRules);
    expect(
      await apiError(
        api(ed).orgs.updateOrganizationById(acme.organization.id, { mergeRules: { type: 'none' } } as never),
      ),
    ).toMatchObject({ code: 403 });

    const space = await spaceWith('Inherits');
    expect((await api(ed).spaces.getSpaceById(space.id)).data).toMatchObject({ mergeRules: { type: 'inherit' } });
    const cr = await changeRequest(space.id, 'Inherited');
    // Content learns the organization's rules from org-admin's event.
    await eventually(
      async () => (await shown(ed, space.id, cr.id))?.type === 'rules',
      10_000,
      'the organization merge rules in content',
    );
    expect(await shown(ed, space.id, cr.id)).toMatchObject({ source: 'organization', mergeable: false, bypass: false });
    expect(await apiError(merge(rev2, space.id, cr.id))).toEqual({
      code: 409,
      message: expect.stringContaining("the organization's merge rules: require_at_least_one_approved_review"),
    });
    await approve(rev1, space.id, cr.id);
    expect((await merge(rev2, space.id, cr.id)).data.result).toBe('merge');

    const bypassed = await changeRequest(space.id, 'Bypassed');
    expect(await shown(acme, space.id, bypassed.id)).toMatchObject({
      source: 'organization',
      bypass: true,
      mergeable: true,
    });
    expect((await merge(acme, space.id, bypassed.id)).data.result).toBe('merge');

    const free = await spaceWith('Free', { type: 'none' });
    const quick = await changeRequest(free.id, 'Quick');
    expect(await shown(ed, free.id, quick.id)).toEqual({
      source: 'space',
      type: 'none',
      rules: [],
      bypass: false,
      mergeable: true,
    });
    expect((await merge(rev2, free.id, quick.id)).data.result).toBe('merge');
  });

  it('are described by /v1/openapi.json (PATCH of a space and of an organization)', async () => {
    const doc = (await (await fetch(`${p.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    const body = (path: string) =>
      Object.entries(doc.paths).find(([route]) => route.endsWith(path))?.[1].patch?.requestBody;
    const text = JSON.stringify([body('/spaces/{spaceId}'), body('/orgs/{organizationId}')]);
    for (const rule of [
      'require_specific_reviewers',
      'require_one_of_specific_reviewers',
      'allow_bypass',
      'require_up_to_date_change_request',
      'inherit',
    ])
      expect(text).toContain(rule);
  });

  it('refuses rules Quire does not evaluate (400 naming the field)', async () => {
    const space = await spaceWith('Custom');
    expect(
      await apiError(
        api(acme).spaces.updateSpaceById(space.id, {
          mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] },
        } as never),
      ),
    ).toEqual({
      code: 400,
      message: expect.stringMatching(/mergeRules\.rules\.0\.rule: `custom` is not supported/),
    });
  });
});
