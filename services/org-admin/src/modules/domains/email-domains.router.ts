import { ops } from '@quire/contracts';
import { emailDomainClaimer, emailDomainDeleter } from '../../commands/email-domain-writer.ts';
import { implement, implementPrepared } from '../../trpc.ts';
import { assertOrganizationAction } from '../organizations/organization.loader.ts';
import { domainRepository } from './domain.repository.ts';
import { loadEmailDomainRecords } from './email-domain.loader.ts';
import { presentEmailDomain } from './email-domain.presenter.ts';

/** E-mail domains an organization proves it owns by a DNS TXT record (Quire only): for organization admins. */
export const emailDomainProcedures = {
  listOrganizationEmailDomains: implement(ops.listOrganizationEmailDomains, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'update');
    const page = await domainRepository.page(ctx.em, input.organizationId, input);
    return { ...page, items: page.items.map((d) => presentEmailDomain(ctx, d)) };
  }),
  upsertOrganizationEmailDomain: implementPrepared(
    ops.upsertOrganizationEmailDomain,
    ({ input, ctx }) => loadEmailDomainRecords(ctx, input),
    async ({ input, ctx, prepared }) => {
      assertOrganizationAction(ctx, input, 'update');
      const domain = await emailDomainClaimer(ctx.em, {
        organizationId: input.organizationId,
        domain: input.emailDomain,
        records: prepared,
      });
      return presentEmailDomain(ctx, domain);
    },
  ),
  getOrganizationEmailDomain: implement(ops.getOrganizationEmailDomain, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'update');
    return presentEmailDomain(ctx, await domainRepository.findOrThrow(ctx.em, input.organizationId, input.emailDomain));
  }),
  deleteOrganizationEmailDomain: implement(ops.deleteOrganizationEmailDomain, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'update');
    emailDomainDeleter(ctx.em, {
      domain: await domainRepository.findOrThrow(ctx.em, input.organizationId, input.emailDomain),
    });
  }),
};
