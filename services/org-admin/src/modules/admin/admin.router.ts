import { Events, ops } from '@quire/contracts';
import { newId, notFound, recordEvent } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { ensureUser, setMembership } from '../../commands/member-adder.ts';
import { issueToken } from '../../commands/token-issuer.ts';
import { Organization } from '../organizations/organization.entity.ts';
import { organizationPermissions } from '../organizations/organization.policy.ts';
import { presentOrganization } from '../organizations/organization.presenter.ts';
import { presentUser } from '../users/user.presenter.ts';

/** Instance administration used by the `quire` CLI (instance admin token only). */
export const adminProcedures = {
  bootstrapInstance: implement(ops.bootstrapInstance, async ({ input, ctx }) => {
    const now = new Date();
    const user = await ensureUser(ctx.em, { email: input.email, name: input.name });
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
    recordEvent(ctx.em, Events.organizationCreated, { organization: org.id, title: org.title, createdBy: user.id });
    await setMembership(ctx.em, { organizationId: org.id, userId: user.id, role: 'admin' });
    const { token } = issueToken(ctx.em, user.id, 'bootstrap');
    await ctx.em.flush();
    const asMember = { kind: 'user' as const, userId: user.id, memberships: [{ organization: org.id, role: 'admin' as const, teams: [] }] };
    return {
      organization: presentOrganization(org, organizationPermissions(asMember, org.id), ctx.config.QUIRE_PUBLIC_URL),
      user: presentUser(user, ctx.config.QUIRE_PUBLIC_URL),
      token,
    };
  }),

  addUserToOrganization: implement(ops.addUserToOrganization, async ({ input, ctx }) => {
    const org = await ctx.em.findOne(Organization, { id: input.organizationId });
    if (!org) throw notFound('Organization');
    const user = await ensureUser(ctx.em, { email: input.email, name: input.name });
    await setMembership(ctx.em, { organizationId: org.id, userId: user.id, role: input.role });
    const { token } = issueToken(ctx.em, user.id, 'cli');
    await ctx.em.flush();
    return { user: presentUser(user, ctx.config.QUIRE_PUBLIC_URL), token };
  }),
};
