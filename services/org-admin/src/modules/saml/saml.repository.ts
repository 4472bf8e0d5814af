import { identityProviderRepository } from '../identity-providers/identity-provider.repository.ts';
import { SamlProvider, type ISamlProvider } from './saml-provider.entity.ts';

export const samlRepository = identityProviderRepository<ISamlProvider>(SamlProvider, 'SAML provider');
