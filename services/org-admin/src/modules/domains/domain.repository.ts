import { notFound, paginate, type EntityManager, type PageRequest } from '@quire/kit';
import { OrganizationDomain, type IOrganizationDomain } from './domain.entity.ts';

/** The e-mail domains organizations claim and prove by DNS (docs/sign-in.md). */
export const domainRepository = {
  /** The organization has proven it owns the domain of `email` (a verified TXT record). */
  async ownsDomainOf(em: EntityManager, organizationId: string, email: string): Promise<boolean> {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (!domain) return false;
    return (await em.count(OrganizationDomain, { organizationId, domain, verifiedAt: { $ne: null } })) > 0;
  },
  async findOrThrow(em: EntityManager, organizationId: string, domain: string): Promise<IOrganizationDomain> {
    const row = await em.findOne(OrganizationDomain, { organizationId, domain: domain.toLowerCase() });
    if (!row) throw notFound('Domain');
    return row;
  },
  find(em: EntityManager, organizationId: string, domain: string): Promise<IOrganizationDomain | null> {
    return em.findOne(OrganizationDomain, { organizationId, domain: domain.toLowerCase() });
  },
  count(em: EntityManager, organizationId: string): Promise<number> {
    return em.count(OrganizationDomain, { organizationId });
  },
  /** A page of the organization's domains, in alphabetical order. */
  page(em: EntityManager, organizationId: string, req: PageRequest) {
    return paginate(em, OrganizationDomain, { organizationId }, { domain: 'asc' }, req, (d) => d);
  },
};
