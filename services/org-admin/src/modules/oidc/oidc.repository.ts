import { notFound, type EntityManager } from '@quire/kit';
import { OidcProvider, type IOidcProvider } from './oidc-provider.entity.ts';

export const oidcRepository = {
  async findOrThrow(em: EntityManager, organizationId: string, id: string): Promise<IOidcProvider> {
    const p = await em.findOne(OidcProvider, { id, organizationId });
    if (!p) throw notFound('OpenID Connect provider');
    return p;
  },
  allOf(em: EntityManager, organizationId: string): Promise<IOidcProvider[]> {
    return em.find(OidcProvider, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  },
};
