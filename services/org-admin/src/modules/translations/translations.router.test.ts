import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { expectReasons, failureOf, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'translations' });

describe('translation settings', () => {
  it('creates, reads, replaces, lists and deletes settings', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    const created = await t.call(
      ops.createTranslation,
      { organizationId, title: '  Docs in French ', languages: ['fr', 'pt-br'] },
      admin.actor,
    );
    expect(created).toMatchObject({
      object: 'translation-settings',
      title: 'Docs in French',
      languages: ['fr', 'pt-br'],
      permissions: { view: true, edit: true },
    });
    expect(created.urls.location).toBe(`http://quire.test/v1/orgs/${organizationId}/translations/${created.id}`);
    expect(created.createdAt).toBe(created.updatedAt);
    expect(
      await t.call(ops.getTranslation, { organizationId, translationSettingsId: created.id }, admin.actor),
    ).toEqual(created);

    const renamed = await t.call(
      ops.updateTranslation,
      { organizationId, translationSettingsId: created.id, title: 'Docs in Romance languages' },
      admin.actor,
    );
    expect(renamed).toMatchObject({ title: 'Docs in Romance languages', languages: ['fr', 'pt-br'] });
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect(
      (
        await t.call(
          ops.updateTranslation,
          { organizationId, translationSettingsId: created.id, title: 'Spanish', languages: ['es'] },
          admin.actor,
        )
      ).languages,
    ).toEqual(['es']);

    const second = await t.call(ops.createTranslation, { organizationId, title: 'Second' }, admin.actor);
    expect(second.languages).toEqual([]);
    const first = await t.call(ops.listTranslations, { organizationId, limit: 1 }, admin.actor);
    expect(first).toMatchObject({ count: 2, items: [{ id: created.id, title: 'Spanish' }] });
    const next = await t.call(ops.listTranslations, { organizationId, limit: 1, page: first.next!.page }, admin.actor);
    expect(next.items.map((i) => i.id)).toEqual([second.id]);
    expect(next.next).toBeUndefined();

    await t.call(ops.deleteTranslation, { organizationId, translationSettingsId: created.id }, admin.actor);
    expect(
      (await failureOf(t.call(ops.getTranslation, { organizationId, translationSettingsId: created.id }, admin.actor)))
        .message,
    ).toBe('Translation settings not found');
    expect((await t.call(ops.listTranslations, { organizationId }, admin.actor)).count).toBe(1);
  });

  it('validates the title and languages, naming the field', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /title: Invalid input/],
      [{ title: '   ' }, /title: Too small/],
      [{ title: 'x'.repeat(101) }, /title: Too big/],
      [{ title: 'ok', languages: ['klingon'] }, /languages\.0/],
      [{ title: 'ok', languages: ['fr', 'fr'] }, /languages: must not repeat a language/],
    ];
    for (const [body, message] of cases) {
      const err = await failureOf(t.call(ops.createTranslation, { organizationId, ...body } as never, admin.actor));
      expect(err.reason).toBe('invalid_input');
      expect(err.message).toMatch(message);
    }
    expect(
      (await t.call(ops.createTranslation, { organizationId, title: 'x'.repeat(100) }, admin.actor)).title,
    ).toHaveLength(100);
  });

  it('lets members read, admins edit; guests get 403, other organizations 404', async () => {
    const { organizationId, admin, users } = await seedOrganization(t, { rae: 'create', gil: null });
    const other = await seedOrganization(t, {});
    const settings = await t.call(ops.createTranslation, { organizationId, title: 'German' }, admin.actor);
    expect(
      (await t.call(ops.getTranslation, { organizationId, translationSettingsId: settings.id }, users.rae.actor))
        .permissions,
    ).toEqual({ view: true, edit: false });
    expect((await t.call(ops.listTranslations, { organizationId }, users.rae.actor)).items[0]!.permissions.edit).toBe(
      false,
    );
    const translationSettingsId = settings.id;
    await expectReasons('forbidden', [
      () => t.call(ops.updateTranslation, { organizationId, translationSettingsId, title: 'Nope' }, users.rae.actor),
      () => t.call(ops.deleteTranslation, { organizationId, translationSettingsId }, users.rae.actor),
      () => t.call(ops.createTranslation, { organizationId, title: 'Nope' }, users.rae.actor),
      () => t.call(ops.listTranslations, { organizationId }, users.gil.actor),
    ]);
    await expectReasons('not_found', [
      () => t.call(ops.getTranslation, { organizationId, translationSettingsId }, other.admin.actor),
      () =>
        t.call(ops.getTranslation, { organizationId: other.organizationId, translationSettingsId }, other.admin.actor),
    ]);
  });
});
