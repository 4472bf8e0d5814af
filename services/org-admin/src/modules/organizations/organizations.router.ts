import { ops } from '@quire/contracts';
import { notFound, paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { asAdminOf, createOrganization } from '../../commands/organization-creator.ts';
import { Membership, Organization } from './organization.entity.ts';
import { assertCanAdmin, assertCanView, organizationPermissions } from './organization.policy.ts';
import { presentOrganization } from './organization.presenter.ts';

export const organizationProcedures = {
  listOrganizationsForAuthenticatedUser: implement(ops.listOrganizationsForAuthenticatedUser, async ({ input, ctx }) => {
    const memberships = await ctx.em.find(Membership, { userId: ctx.actor.userId }, { fields: ['organizationId'] });
    const ids = memberships.map((m) => m.organizationId);
    return paginate(ctx.em, Organization, { id: { $in: ids } }, { createdAt: 'asc', id: 'asc' }, input, (o) =>
      presentOrganization(o, organizationPermissions(ctx.actor, o.id), ctx.config.QUIRE_PUBLIC_URL),
    );
  }),

  createOrganization: implement(ops.createOrganization, async ({ input, ctx }) => {
    const org = await createOrganization(ctx.em, { title: input.title, adminUserId: ctx.actor.userId });
    await ctx.em.flush();
    return presentOrganization(org, organizationPermissions(asAdminOf(ctx.actor.userId, org.id), org.id), ctx.config.QUIRE_PUBLIC_URL);
  }),

  getOrganizationById: implement(ops.getOrganizationById, async ({ input, ctx }) => {
    const permissions = assertCanView(ctx.actor, input.organizationId);
    const org = await ctx.em.findOne(Organization, { id: input.organizationId });
    if (!org) throw notFound('Organization');
    return presentOrganization(org, permissions, ctx.config.QUIRE_PUBLIC_URL);
  }),

  updateOrganizationById: implement(ops.updateOrganizationById, async ({ input, ctx }) => {
    const permissions = assertCanAdmin(ctx.actor, input.organizationId);
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
    return presentOrganization(org, permissions, ctx.config.QUIRE_PUBLIC_URL);
  }),
};
