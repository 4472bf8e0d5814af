// Typed calls of the /v1 operations the settings screens use (members, teams, space permissions, audit log).
import type { ops } from '@quire/contracts';
import { ApiError, browserTransport, type In, type Out, request, requestAll, seg, type Transport } from './client.ts';
import type { Collection, Space } from './endpoints.ts';

export type Member = Out<typeof ops.listMembersInOrganizationById>['items'][number];
export type Role = NonNullable<Member['role']>;
export type Team = Out<typeof ops.listTeamsInOrganizationById>['items'][number];
export type TeamMember = Out<typeof ops.listTeamMembersInOrganizationById>['items'][number];
export type UserPermission = Out<typeof ops.listUserPermissionsInSpace>['items'][number];
export type TeamPermission = Out<typeof ops.listTeamPermissionsInSpace>['items'][number];
export type AuditEvent = Out<typeof ops.listOrganizationAuditEvents>['items'][number];
export type AuditPage = Out<typeof ops.listOrganizationAuditEvents>;
export type AuditFilter = Pick<
  In<typeof ops.listOrganizationAuditEvents>,
  'action' | 'actor' | 'target' | 'from' | 'to'
>;
export type Site = Out<typeof ops.getSiteById>;
export type ShareLink = Out<typeof ops.listSiteShareLinks>['items'][number];
export type Customization = Out<typeof ops.getSiteCustomizationById>;
export type CustomizationInput = Omit<In<typeof ops.updateSiteCustomizationById>, 'organizationId' | 'siteId'>;
export type SiteSection = Out<typeof ops.listSiteSections>['items'][number];
export type SiteSpace = Out<typeof ops.listSiteSpaces>['items'][number];
export type SectionChange = Pick<In<typeof ops.updateSiteSectionById>, 'title' | 'path' | 'siteSectionGroupId'>;
export type SiteStructure = Out<typeof ops.getSiteStructure>;
export type Overrides = Omit<
  In<typeof ops.overrideSiteSpaceCustomizationById>,
  'organizationId' | 'siteId' | 'siteSpaceId'
>;
export type SectionGroup = Out<typeof ops.addSectionGroupToSite>;
/** A section or a section group: what `sortSiteStructure` orders among the items of their level. */
export type StructurePointer = In<typeof ops.sortSiteStructure>['item'];
export type StructurePosition = NonNullable<In<typeof ops.sortSiteStructure>['position']>;
export type InviteResult = Out<typeof ops.inviteUsersToOrganization>;
export type PendingInvite = Out<typeof ops.listOrganizationInvites>['items'][number];
export type DefaultLevel = Space['defaultLevel'];
export type MergeRules = NonNullable<In<typeof ops.updateSpaceById>['mergeRules']>;
export type OrgMergeRules = NonNullable<In<typeof ops.updateOrganizationById>['mergeRules']>;
export type RevisionsPage = Out<typeof ops.listRevisionsInSpace>;
export type SpaceRevision = RevisionsPage['items'][number];
export type RevisionChanges = Out<typeof ops.getRevisionSemanticChanges>;
export type GitInfo = Out<typeof ops.getSpaceGitInfo>;
export type GitConnection = Out<typeof ops.getSpaceGitConnection>;
export type GitConnect = Omit<In<typeof ops.updateSpaceGitConnection>, 'spaceId'>;

/** Where permissions are given: a space (its id) or a collection. */
export type Target = string | { collection: string };

/** A read that answers 404 when there is nothing (a space's Git sync): null instead. */
const orNull = <T>(p: Promise<T>): Promise<T | null> =>
  p.catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  });

/** The roles of the API, most powerful first (null: a guest, with no organization role). */
export const ROLES: Role[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

export function settingsApiOf(t: Transport = browserTransport) {
  const org = (o: string) => `/orgs/${seg(o)}`;
  const team = (o: string, id: string) => `${org(o)}/teams/${seg(id)}`;
  /** A space's id, or a collection's as `{ collection }`: where permissions are given. */
  const base = (on: Target) => (typeof on === 'string' ? `/spaces/${seg(on)}` : `/collections/${seg(on.collection)}`);
  const perms = (on: Target) => `${base(on)}/permissions`;
  return {
    members: (o: string) => requestAll<Member>(t, `${org(o)}/members`, { sort: 'name' }),
    invite: (o: string, emails: string[], role: Role | null) =>
      request<InviteResult>(t, 'POST', `${org(o)}/invites`, { body: { emails, role } }),
    invites: (o: string) => requestAll<PendingInvite>(t, `${org(o)}/invites`),
    withdrawInvite: (o: string, id: string) => request<void>(t, 'DELETE', `${org(o)}/invites/${seg(id)}`),
    setRole: (o: string, user: string, role: Role | null) =>
      request<Member>(t, 'PATCH', `${org(o)}/members/${seg(user)}`, { body: { role } }),
    removeMember: (o: string, user: string) => request<void>(t, 'DELETE', `${org(o)}/members/${seg(user)}`),

    teams: (o: string) => requestAll<Team>(t, `${org(o)}/teams`),
    createTeam: (o: string, title: string) => request<Team>(t, 'PUT', `${org(o)}/teams`, { body: { title } }),
    renameTeam: (o: string, id: string, title: string) => request<Team>(t, 'PATCH', team(o, id), { body: { title } }),
    deleteTeam: (o: string, id: string) => request<void>(t, 'DELETE', team(o, id)),
    teamMembers: (o: string, id: string) => requestAll<TeamMember>(t, `${team(o, id)}/members`),
    addTeamMember: (o: string, id: string, user: string) =>
      request<void>(t, 'PUT', `${team(o, id)}/members/${seg(user)}`, { body: {} }),
    removeTeamMember: (o: string, id: string, user: string) =>
      request<void>(t, 'DELETE', `${team(o, id)}/members/${seg(user)}`),

    collection: (id: string) => request<Collection>(t, 'GET', `/collections/${seg(id)}`),
    userPermissions: (space: Target) => requestAll<UserPermission>(t, `${perms(space)}/users`),
    teamPermissions: (space: Target) => requestAll<TeamPermission>(t, `${perms(space)}/teams`),
    grant: (space: Target, who: { users?: string[]; teams?: string[] }, role: Role) =>
      request<void>(t, 'POST', perms(space), { body: { role, ...who } }),
    setUserPermission: (space: Target, user: string, role: Role) =>
      request<void>(t, 'PATCH', `${perms(space)}/users/${seg(user)}`, { body: { role } }),
    setTeamPermission: (space: Target, id: string, role: Role) =>
      request<void>(t, 'PATCH', `${perms(space)}/teams/${seg(id)}`, { body: { role } }),
    removeUserPermission: (space: Target, user: string) =>
      request<void>(t, 'DELETE', `${perms(space)}/users/${seg(user)}`),
    removeTeamPermission: (space: Target, id: string) => request<void>(t, 'DELETE', `${perms(space)}/teams/${seg(id)}`),
    setDefaultLevel: (space: Target, defaultLevel: DefaultLevel) =>
      request<unknown>(t, 'PATCH', base(space), { body: { defaultLevel } }),

    setMergeRules: (space: string, mergeRules: MergeRules) =>
      request<Space>(t, 'PATCH', `/spaces/${seg(space)}`, { body: { mergeRules } }),
    setOrgMergeRules: (o: string, mergeRules: OrgMergeRules) =>
      request<unknown>(t, 'PATCH', org(o), { body: { mergeRules } }),
    revisions: (space: string, page?: string) =>
      request<RevisionsPage>(t, 'GET', `/spaces/${seg(space)}/revisions`, { query: { limit: 20, page } }),
    revisionChanges: (space: string, revision: string) =>
      request<RevisionChanges>(t, 'GET', `/spaces/${seg(space)}/revisions/${seg(revision)}/changes`, {
        query: { limit: 200 },
      }),
    gitInfo: (space: string) => orNull(request<GitInfo>(t, 'GET', `/spaces/${seg(space)}/git/info`)),
    gitConnection: (space: string) => orNull(request<GitConnection>(t, 'GET', `/spaces/${seg(space)}/git/connection`)),
    connectGit: (space: string, body: GitConnect) =>
      request<GitConnection>(t, 'PUT', `/spaces/${seg(space)}/git/connection`, { body }),
    disconnectGit: (space: string) => request<void>(t, 'DELETE', `/spaces/${seg(space)}/git/connection`),

    sites: (o: string) => requestAll<Site>(t, `${org(o)}/sites`),
    site: (o: string, id: string) => request<Site>(t, 'GET', `${org(o)}/sites/${seg(id)}`),
    /** A new site showing these spaces (the first its default), not published yet. */
    createSite: (o: string, title: string, spaces: string[]) =>
      request<Site>(t, 'POST', `${org(o)}/sites`, { body: { title, ...(spaces.length ? { spaces } : {}) } }),
    publish: (o: string, id: string, on: boolean) =>
      request<Site>(t, 'POST', `${org(o)}/sites/${seg(id)}/${on ? 'publish' : 'unpublish'}`),
    shareLinks: (o: string, id: string) => requestAll<ShareLink>(t, `${org(o)}/sites/${seg(id)}/share-links`),
    createShareLink: (o: string, id: string, name: string) =>
      request<ShareLink>(t, 'POST', `${org(o)}/sites/${seg(id)}/share-links`, { body: { name } }),
    updateShareLink: (o: string, id: string, link: string, body: { active?: boolean; name?: string }) =>
      request<ShareLink>(t, 'PATCH', `${org(o)}/sites/${seg(id)}/share-links/${seg(link)}`, { body }),
    rotateShareLink: (o: string, id: string, link: string) =>
      request<ShareLink>(t, 'POST', `${org(o)}/sites/${seg(id)}/share-links/${seg(link)}/rotate-key`),
    deleteShareLink: (o: string, id: string, link: string) =>
      request<void>(t, 'DELETE', `${org(o)}/sites/${seg(id)}/share-links/${seg(link)}`),
    customization: (o: string, id: string) =>
      request<Customization>(t, 'GET', `${org(o)}/sites/${seg(id)}/customization`),
    setCustomization: (o: string, id: string, body: CustomizationInput) =>
      request<Customization>(t, 'PUT', `${org(o)}/sites/${seg(id)}/customization`, { body }),
    siteSpaces: (o: string, id: string) => requestAll<SiteSpace>(t, `${org(o)}/sites/${seg(id)}/site-spaces`),
    addSection: (o: string, id: string, spaceId: string, title: string) =>
      request<SiteSection>(t, 'POST', `${org(o)}/sites/${seg(id)}/sections`, { body: { spaceId, title } }),
    updateSection: (o: string, id: string, section: string, body: SectionChange) =>
      request<SiteSection>(t, 'PATCH', `${org(o)}/sites/${seg(id)}/sections/${seg(section)}`, { body }),
    /** What a site space's pages show: the site's customization with the site space's overrides. */
    siteSpaceCustomization: (o: string, id: string, ss: string) =>
      request<Customization>(t, 'GET', `${org(o)}/sites/${seg(id)}/site-spaces/${seg(ss)}/customization`),
    override: (o: string, id: string, ss: string, body: Overrides) =>
      request<Customization>(t, 'PATCH', `${org(o)}/sites/${seg(id)}/site-spaces/${seg(ss)}/customization`, { body }),
    removeOverrides: (o: string, id: string, ss: string) =>
      request<void>(t, 'DELETE', `${org(o)}/sites/${seg(id)}/site-spaces/${seg(ss)}/customization`),
    structure: (o: string, id: string) => request<SiteStructure>(t, 'GET', `${org(o)}/sites/${seg(id)}/structure`),
    /** Puts a section or group just before or after a sibling of its level. */
    sortStructure: (o: string, id: string, item: StructurePointer, position: StructurePosition) =>
      request<unknown>(t, 'PATCH', `${org(o)}/sites/${seg(id)}/structure/sort`, { body: { item, position } }),
    /** Adds a group, last at the top level of the site or in the group `parent`. */
    addGroup: (o: string, id: string, title: string, parent?: string) =>
      request<SectionGroup>(t, 'POST', `${org(o)}/sites/${seg(id)}/section-groups`, {
        body: parent ? { title, parent } : { title },
      }),
    /** Moves a group into another (last there), or to the top level of the site (null). */
    moveGroup: (o: string, id: string, group: string, parent: string | null) =>
      request<SectionGroup>(t, 'PATCH', `${org(o)}/sites/${seg(id)}/section-groups/${seg(group)}`, {
        body: { parentSectionGroupId: parent },
      }),
    renameGroup: (o: string, id: string, group: string, title: string) =>
      request<SectionGroup>(t, 'PATCH', `${org(o)}/sites/${seg(id)}/section-groups/${seg(group)}`, { body: { title } }),
    deleteGroup: (o: string, id: string, group: string) =>
      request<void>(t, 'DELETE', `${org(o)}/sites/${seg(id)}/section-groups/${seg(group)}`),
    deleteSection: (o: string, id: string, section: string) =>
      request<void>(t, 'DELETE', `${org(o)}/sites/${seg(id)}/sections/${seg(section)}`),
    addSiteSpace: (o: string, id: string, spaceId: string, sectionId?: string) =>
      request<SiteSpace>(t, 'POST', `${org(o)}/sites/${seg(id)}/site-spaces`, { body: { spaceId, sectionId } }),
    deleteSiteSpace: (o: string, id: string, siteSpace: string) =>
      request<void>(t, 'DELETE', `${org(o)}/sites/${seg(id)}/site-spaces/${seg(siteSpace)}`),

    auditEvents: (o: string, filter: AuditFilter, page?: string) =>
      request<AuditPage>(t, 'GET', `${org(o)}/audit-events`, { query: { ...filter, page, limit: 50 } }),
    auditActions: (o: string) =>
      request<Out<typeof ops.listOrganizationAuditEventActions>>(t, 'GET', `${org(o)}/audit-event-actions`),
  };
}

export const settingsApi = settingsApiOf();
