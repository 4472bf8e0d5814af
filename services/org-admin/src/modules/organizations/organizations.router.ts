import { ops } from '@quire/contracts';
import { notFound, paginate, type EntityManager } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { asAdminOf, createOrganization } from '../../commands/organization-creator.ts';
import { TeamMember } from '../teams/team.entity.ts';
import { Membership, Organization } from './organization.entity.ts';
import { assertCanAdmin, assertCanView, organizationPermissions } from './organization.policy.ts';
import { presentOrganization } from './organization.presenter.ts';

export const organizationProcedures = {
  listOrganizationsForAuthenticatedUser: implement(ops.listOrganizationsForAuthenticatedUser, async ({ input, ctx }) => {
    const memberships = await ctx.em.find(Membership, { userId: ctx.actor.userId }, { fields: ['organizationId'] });
    const ids = memberships.map((m) => m.organizationId);
    const owned = await organizationsWithOwnedTeams(ctx.em, ctx.actor.userId);
    return paginate(ctx.em, Organization, { id: { $in: ids } }, { createdAt: 'asc', id: 'asc' }, input, (o) =>
      presentOrganization(o, organizationPermissions(ctx.actor, o.id, { ownsTeam: owned.has(o.id) }), ctx.config.QUIRE_PUBLIC_URL),
    );
  }),

  createOrganization: implement(ops.createOrganization, async ({ input, ctx }) => {
    const org = await createOrganization(ctx.em, { title: input.title, adminUserId: ctx.actor.userId });
    await ctx.em.flush();
    return presentOrganization(org, organizationPermissions(asAdminOf(ctx.actor.userId, org.id), org.id), ctx.config.QUIRE_PUBLIC_URL);
  }),

  getOrganizationById: implement(ops.getOrganizationById, async ({ input, ctx }) => {
    assertCanView(ctx.actor, input.organizationId);
    const org = await ctx.em.findOne(Organization, { id: input.organizationId });
    if (!org) throw notFound('Organization');
    const ownsTeam = (await organizationsWithOwnedTeams(ctx.em, ctx.actor.userId, org.id)).has(org.id);
    return presentOrganization(org, organizationPermissions(ctx.actor, org.id, { ownsTeam }), ctx.config.QUIRE_PUBLIC_URL);
  }),

  updateOrganizationById: implement(ops.updateOrganizationById, async ({ input, ctx }) => {
    assertCanAdmin(ctx.actor, input.organizationId);
    const org = await ctx.em.findOne(Organization, { id: input.organizationId });
    if (!org) throw notFound('Organization');
    const { organizationId: _, ...changes } = input;
    if (changes.title !== undefined) org.title = changes.title;
    if (changes.emailDomains !== undefined) org.emailDomains = [...new Set(changes.emailDomains.map((d) => d.toLowerCase()))];
    if (changes.hostname !== undefined) org.hostname = changes.hostname;
    if (changes.defaultRole !== undefined) org.defaultRole = changes.defaultRole;
    if (changes.inviteLinks !== undefined) org.inviteLinks = changes.inviteLinks;
    org.updatedAt = new Date();
    await ctx.em.flush();
    const ownsTeam = (await organizationsWithOwnedTeams(ctx.em, ctx.actor.userId, org.id)).has(org.id);
    return presentOrganization(org, organizationPermissions(ctx.actor, org.id, { ownsTeam }), ctx.config.QUIRE_PUBLIC_URL);
  }),
};

/** The organizations (all of the user's, or just `organizationId`) where the user owns a team: `permissions.ownTeam`. */
async function organizationsWithOwnedTeams(em: EntityManager, userId: string, organizationId?: string): Promise<Set<string>> {
  const rows = await em.find(TeamMember, { userId, role: 'owner', ...(organizationId ? { organizationId } : {}) }, { fields: ['team', 'userId', 'organizationId'] });
  return new Set(rows.map((r) => r.organizationId));
}
