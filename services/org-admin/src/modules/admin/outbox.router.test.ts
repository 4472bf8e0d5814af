import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { reasonOf } from '@quire/kit/testing';
import { instanceAdmin, seedOrganization, useOrgAdminAndContent } from '../../test-support.ts';
import { OutboxMail } from './outbox-mail.entity.ts';

const p = useOrgAdminAndContent('outbox');

describe('the outbox (no SMTP server)', () => {
  it('keeps each invitation for the instance admin, sealed at rest, until its link expires', async () => {
    const { organizationId, admin } = await seedOrganization(p.orgAdmin, {}, { title: 'Outbox Org' });
    await p.orgAdmin.call(
      ops.inviteUsersToOrganization,
      { organizationId, emails: ['olga@outbox.example', 'oscar@outbox.example'] },
      admin.actor,
    );
    const list = await p.orgAdmin.call(ops.listOutboxMails, {}, instanceAdmin);
    const mine = list.items.filter((m) => m.to.endsWith('@outbox.example'));
    expect(mine.map((m) => [m.kind, m.to, m.subject])).toEqual([
      ['invite', 'oscar@outbox.example', 'You are invited to Outbox Org on Quire'],
      ['invite', 'olga@outbox.example', 'You are invited to Outbox Org on Quire'],
    ]);
    const [oscar] = mine;
    expect(oscar!.link).toMatch(/\/invites\/accept\?token=/);
    expect(oscar!.text).toContain(oscar!.link);
    const days = (Date.parse(oscar!.expiresAt) - Date.parse(oscar!.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    // At rest, neither the link nor the text is readable.
    const em = p.orgAdmin.svc.deps.orm.em.fork();
    const row = await em.findOneOrFail(OutboxMail, { id: oscar!.id });
    expect(row.link).not.toContain('token=');
    expect(row.text).not.toContain('token=');

    // An expired mail leaves the list.
    await em.nativeUpdate(OutboxMail, { id: oscar!.id }, { expiresAt: new Date(Date.now() - 1000) });
    const after = await p.orgAdmin.call(ops.listOutboxMails, {}, instanceAdmin);
    expect(after.items.map((m) => m.id)).not.toContain(oscar!.id);
    expect(after.items.map((m) => m.to)).toContain('olga@outbox.example');
  });

  it('is for the instance admin alone: an organization admin is refused', async () => {
    const { admin } = await seedOrganization(p.orgAdmin, {});
    expect(await reasonOf(p.orgAdmin.call(ops.listOutboxMails, {}, admin.actor))).toBe('forbidden');
  });
});
