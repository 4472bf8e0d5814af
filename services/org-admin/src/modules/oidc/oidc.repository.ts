import { identityProviderRepository } from '../identity-providers/identity-provider.repository.ts';
import { OidcProvider, type IOidcProvider } from './oidc-provider.entity.ts';

export const oidcRepository = identityProviderRepository<IOidcProvider>(OidcProvider, 'OpenID Connect provider');
