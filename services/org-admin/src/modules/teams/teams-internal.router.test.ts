import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { reasonOf } from '@quire/kit/testing';
import { seedOrganization, useOrgAdminAndContent } from '../../test-support.ts';

const p = useOrgAdminAndContent('teams-internal');

const content: Actor = { kind: 'service', service: 'content' };

describe('teams.getMany (content and sites present the teams given a role)', () => {
  it("answers the organization's teams by id, in the order asked, as the viewer sees them; others' left out", async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { amy: 'read' });
    const other = await seedOrganization(p.orgAdmin, {});
    const docs = await p.orgAdmin.call(
      ops.createOrganizationTeam,
      { organizationId, title: 'Docs', members: [users.amy.id] },
      admin.actor,
    );
    const opsTeam = await p.orgAdmin.call(ops.createOrganizationTeam, { organizationId, title: 'Ops' }, admin.actor);
    const theirs = await p.orgAdmin.call(
      ops.createOrganizationTeam,
      { organizationId: other.organizationId, title: 'Theirs' },
      other.admin.actor,
    );
    const asAdmin = await p.orgAdmin.call(
      ops.getTeamsByIds,
      { organizationId, ids: [opsTeam.id, theirs.id, 'nope', docs.id], viewer: admin.id },
      content,
    );
    expect(asAdmin.items.map((t) => [t.title, t.members, t.permissions.admin])).toEqual([
      ['Ops', 0, true],
      ['Docs', 1, true],
    ]);
    const asAmy = await p.orgAdmin.call(
      ops.getTeamsByIds,
      { organizationId, ids: [docs.id], viewer: users.amy.id },
      content,
    );
    expect(asAmy.items[0]!.permissions.admin).toBe(false);
    // Internal: not for users.
    expect(
      await reasonOf(
        p.orgAdmin.call(ops.getTeamsByIds, { organizationId, ids: [docs.id], viewer: users.amy.id }, admin.actor),
      ),
    ).toMatch(/forbidden|not_found|unauthorized/);
  });
});
