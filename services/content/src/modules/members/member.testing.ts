import type { Role } from '@quire/contracts';
import { orgAdminDirectoryStub, type TestService } from '@quire/kit/testing';

/**
 * org-admin is not running in a test of content: its directory for one organization (users named after their ids)
 * from a stub transport, and the member projection its events keep, filled with `members`.
 */
export async function stubOrganizationMembers(
  t: TestService,
  organizationId: string,
  members: ReadonlyMap<string, Role | null>,
  teams: ReadonlySet<string> = new Set(),
): Promise<void> {
  t.svc.deps.peers.use(
    'org-admin',
    orgAdminDirectoryStub({ inOrganization: (o) => o === organizationId, members, teams }),
  );
  await t.em().transactional(async (em) => {
    for (const [userId, role] of members)
      await em
        .getConnection()
        .execute(`insert into content.member (organization_id, user_id, role, event_at) values (?, ?, ?, now())`, [
          organizationId,
          userId,
          role,
        ]);
  });
}
