import { Events, ops } from '@quire/contracts';
import { newId, notFound, paginate, recordEvent } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { setMembership } from '../../commands/member-adder.ts';
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
    const now = new Date();
    const org = ctx.em.create(Organization, {
      id: newId(),
      title: input.title,
      createdAt: now,
      updatedAt: now,
      emailDomains: [],
      hostname: null,
      defaultRole: null,
      inviteLinks: false,
      type: 'business',
    });
    recordEvent(ctx.em, Events.organizationCreated, { organization: org.id, title: org.title, createdBy: ctx.actor.userId });
    await setMembership(ctx.em, { organizationId: org.id, userId: ctx.actor.userId, role: 'admin' });
    await ctx.em.flush();
    // The caller is admin of what it just created, whatever its (cached) actor says.
    const permissions = organizationPermissions({ ...ctx.actor, memberships: [{ organization: org.id, role: 'admin', teams: [] }] }, org.id);
    return presentOrganization(org, permissions, ctx.config.QUIRE_PUBLIC_URL);
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
