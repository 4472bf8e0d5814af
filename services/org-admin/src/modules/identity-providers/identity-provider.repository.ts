import type { EntityName, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import { notFound, paginate, type EntityManager, type PageRequest } from '@quire/kit';

/** What an organization's identity provider (SAML, OpenID Connect) has for these queries. */
interface IdentityProviderRow {
  id: string;
  organizationId: string;
  createdAt: Date;
}

/**
 * The queries on an organization's identity providers of one kind (its entity; `what` names it in a not-found
 * error): they are the same for every kind. Providers are listed oldest first.
 */
export function identityProviderRepository<P extends IdentityProviderRow>(entity: EntityName<P>, what: string) {
  const ofOrganization = (organizationId: string) => ({ organizationId }) as FilterQuery<P>;
  const oldestFirst = { createdAt: 'asc', id: 'asc' } as QueryOrderMap<P>;
  return {
    async findOrThrow(em: EntityManager, organizationId: string, id: string): Promise<P> {
      const p = await em.findOne(entity, { id, organizationId } as FilterQuery<P>);
      if (!p) throw notFound(what);
      return p as P;
    },
    allOf(em: EntityManager, organizationId: string): Promise<P[]> {
      return em.find(entity, ofOrganization(organizationId), { orderBy: oldestFirst }) as Promise<P[]>;
    },
    /** A page of the organization's providers. */
    page(em: EntityManager, organizationId: string, req: PageRequest) {
      return paginate(em, entity, ofOrganization(organizationId), oldestFirst, req, (p) => p);
    },
  };
}
