import { ops } from '@quire/contracts';
import { notFound } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { ensureUser, setMembership } from '../../commands/member-adder.ts';
import { asAdminOf, createOrganization } from '../../commands/organization-creator.ts';
import { issueToken } from '../../commands/token-issuer.ts';
import { Organization } from '../organizations/organization.entity.ts';
import { organizationPermissions } from '../organizations/organization.policy.ts';
import { presentOrganization } from '../organizations/organization.presenter.ts';
import { presentUser } from '../users/user.presenter.ts';

/** Instance administration used by the `quire` CLI (instance admin token only). */
export const adminProcedures = {
  bootstrapInstance: implement(ops.bootstrapInstance, async ({ input, ctx }) => {
    const user = await ensureUser(ctx.em, { email: input.email, name: input.name });
    const org = await createOrganization(ctx.em, { title: input.title, adminUserId: user.id });
    const { token } = issueToken(ctx.em, user.id, 'bootstrap');
    await ctx.em.flush();
    return {
      organization: presentOrganization(org, organizationPermissions(asAdminOf(user.id, org.id), org.id), ctx.config.QUIRE_PUBLIC_URL),
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
