import { notFound, type EntityManager } from '@quire/kit';
import { SamlProvider, type ISamlProvider } from './saml-provider.entity.ts';

export const samlRepository = {
  async findOrThrow(em: EntityManager, organizationId: string, id: string): Promise<ISamlProvider> {
    const p = await em.findOne(SamlProvider, { id, organizationId });
    if (!p) throw notFound('SAML provider');
    return p;
  },

  allOf(em: EntityManager, organizationId: string): Promise<ISamlProvider[]> {
    return em.find(SamlProvider, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  },
};
