import { ops, type Actor, type Role } from '@quire/contracts';
import {
  createTestDatabase,
  startTestService,
  useResource,
  userActor,
  type TestDatabase,
  type TestService,
} from '@quire/kit/testing';
import { loadOrgAdminConfig } from './env.ts';
import { orgAdminService } from './service.ts';

/** Test helpers of the org-admin service (not part of the service). */

export const instanceAdmin: Actor = { kind: 'instance-admin' };

export interface Platform {
  db: TestDatabase;
  orgAdmin: TestService;
  /** The content service on the same database: org-admin asks it for members' space counts. */
  content: TestService;
  /** The sites service on the same database: org-admin asks it for members' site counts. */
  sites: TestService;
  close(): Promise<void>;
}

/** org-admin, content and sites on one fresh test database, org-admin's peers pointing at content and sites. */
export async function startOrgAdminAndContent(label: string): Promise<Platform> {
  // Loaded here only: the tests that do not need the content and sites services do not depend on them.
  const { contentService, loadContentConfig } = await import('@quire/content');
  const { sitesService, loadSitesConfig } = await import('@quire/sites');
  const db = await createTestDatabase(label);
  const orgAdmin = await startTestService(orgAdminService, loadOrgAdminConfig, db);
  const content = await startTestService(contentService, loadContentConfig, db);
  const sites = await startTestService(sitesService, loadSitesConfig, db);
  orgAdmin.svc.deps.peers.setEndpoint('content', content.url);
  orgAdmin.svc.deps.peers.setEndpoint('sites', sites.url);
  sites.svc.deps.peers.setEndpoint('content', content.url);
  return {
    db,
    orgAdmin,
    content,
    sites,
    close: async () => {
      await orgAdmin.close();
      await sites.close();
      await content.close();
      await db.drop();
    },
  };
}

/** `startOrgAdminAndContent` for one test file: started in `beforeAll`, closed in `afterAll` (the handle is filled then). */
export function useOrgAdminAndContent(label: string): Platform {
  return useResource(
    () => startOrgAdminAndContent(label),
    (p) => p.close(),
  );
}

export interface SeededUser {
  id: string;
  email: string;
  actor: Actor;
}

let seq = 0;

/**
 * An organization with an admin (`admin`) and one user per entry of `members` (name → role), added by the
 * instance admin; every actor is a member of this organization only.
 */
export async function seedOrganization<const N extends string>(
  t: TestService,
  members: Record<N, Role | null>,
  opts: { title?: string; domain?: string } = {},
): Promise<{ organizationId: string; admin: SeededUser; users: Record<N, SeededUser> }> {
  const domain = opts.domain ?? `org${++seq}-${Math.random().toString(36).slice(2, 8)}.test`;
  const boot = await t.call(
    ops.bootstrapInstance,
    { title: opts.title ?? 'Acme Docs', email: `admin@${domain}`, name: 'Ada Admin' },
    instanceAdmin,
  );
  const organizationId = boot.organization.id;
  const admin = {
    id: boot.user.id,
    email: boot.user.email!,
    actor: userActor(boot.user.id, [{ organization: organizationId, role: 'admin' }]),
  };
  const users = {} as Record<N, SeededUser>;
  for (const [name, role] of Object.entries(members) as [N, Role | null][]) {
    const { user } = await t.call(
      ops.addUserToOrganization,
      { organizationId, email: `${name}@${domain}`, role, name: name[0]!.toUpperCase() + name.slice(1) },
      instanceAdmin,
    );
    users[name] = {
      id: user.id,
      email: user.email!,
      actor: userActor(user.id, [{ organization: organizationId, role }]),
    };
  }
  return { organizationId, admin, users };
}

/**
 * A team of the organization made by its admin, with `members` (user ids); `owner`, if given, then added as its owner
 * (a member already or not).
 */
export async function seedTeam(
  t: TestService,
  organizationId: string,
  admin: SeededUser,
  team: { title: string; members?: string[]; owner?: string },
) {
  const { owner, ...create } = team;
  const created = await t.call(ops.createOrganizationTeam, { organizationId, ...create }, admin.actor);
  if (owner)
    await t.call(
      ops.addMemberToOrganizationTeamById,
      { organizationId, teamId: created.id, userId: owner, role: 'owner' },
      admin.actor,
    );
  return created;
}
