import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import type { DomainError } from '@quire/kit';
import { failureOf, userActor, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';

const instanceAdmin: Actor = { kind: 'instance-admin' };
const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'org-merge-rules' });

describe("an organization's merge rules (docs/merge-rules.md)", () => {
  it('are none by default, set by PATCH with one event for content, refused when Quire cannot evaluate them', async () => {
    const { organization, user } = await t.call(
      ops.bootstrapInstance,
      { title: 'Acme', email: 'jane@acme.io', name: 'Jane' },
      instanceAdmin,
    );
    expect(organization.mergeRules).toEqual({ type: 'none' });
    const admin = userActor(user.id, [{ organization: organization.id, role: 'admin' }]);
    const mergeRules = {
      type: 'rules' as const,
      rules: [
        { rule: 'require_one_of_specific_reviewers' as const, users: ['u1', 'u2'] },
        { rule: 'require_up_to_date_change_request' as const },
      ],
    };

    const updated = await t.call(ops.updateOrganizationById, { organizationId: organization.id, mergeRules }, admin);
    expect(updated.mergeRules).toEqual(mergeRules);
    expect((await t.call(ops.getOrganizationById, { organizationId: organization.id }, admin)).mergeRules).toEqual(
      mergeRules,
    );
    // The same rules again, or another setting alone, record no second event.
    await t.call(ops.updateOrganizationById, { organizationId: organization.id, mergeRules }, admin);
    await t.call(ops.updateOrganizationById, { organizationId: organization.id, title: 'Acme Docs' }, admin);
    const events = (await t.outboxEvents('organization.merge-rules-changed')).filter(
      (e) => (e.data as { organization: string }).organization === organization.id,
    );
    expect(events.map((e) => e.data)).toEqual([{ organization: organization.id, mergeRules }]);

    const bad = await failureOf<DomainError>(
      t.call(
        ops.updateOrganizationById,
        { organizationId: organization.id, mergeRules: { type: 'inherit' } } as never,
        admin,
      ),
    );
    expect(bad.reason).toBe('invalid_input');
    expect(bad.message).toMatch(/mergeRules/);
    const custom = await failureOf<DomainError>(
      t.call(
        ops.updateOrganizationById,
        {
          organizationId: organization.id,
          mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] },
        } as never,
        admin,
      ),
    );
    expect(custom.message).toMatch(/mergeRules\.rules\.0\.rule: `custom` is not supported/);
  });
});
