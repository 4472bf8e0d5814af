import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { membershipSetter, userEnsurer } from '../../commands/member-adder.ts';
import { organizationCreator } from '../../commands/organization-creator.ts';
import { tokenIssuer } from '../../commands/token-issuer.ts';
import { presentNewOrganization } from '../organizations/organization.presenter.ts';
import { organizationRepository } from '../organizations/organization.repository.ts';
import { presentUser } from '../users/user.presenter.ts';
import { OutboxMail } from './outbox-mail.entity.ts';
import { outboxMailPresenter } from './outbox-mail.presenter.ts';

/** Instance administration used by the `quire` CLI (instance admin token only: the access rule of the operations). */
export const adminProcedures = {
  bootstrapInstance: implement(ops.bootstrapInstance, async ({ input, ctx }) => {
    const user = await userEnsurer(ctx.em, { email: input.email, name: input.name });
    const org = await organizationCreator(ctx.em, { title: input.title, adminUserId: user.id });
    const { token } = tokenIssuer(ctx.em, { userId: user.id, label: 'bootstrap' });
    return {
      organization: presentNewOrganization(ctx, org),
      user: presentUser(ctx, user),
      token,
    };
  }),

  addUserToOrganization: implement(ops.addUserToOrganization, async ({ input, ctx }) => {
    const org = await organizationRepository.findOrThrow(ctx.em, input.organizationId);
    const user = await userEnsurer(ctx.em, { email: input.email, name: input.name });
    await membershipSetter(ctx.em, { organizationId: org.id, userId: user.id, role: input.role });
    const { token } = tokenIssuer(ctx.em, { userId: user.id, label: 'cli' });
    return { user: presentUser(ctx, user), token };
  }),

  listOutboxMails: implement(ops.listOutboxMails, async ({ input, ctx }) =>
    paginate(
      ctx.em,
      OutboxMail,
      { expiresAt: { $gt: new Date() } },
      { createdAt: 'desc', id: 'desc' },
      input,
      outboxMailPresenter(ctx.config),
    ),
  ),
};
