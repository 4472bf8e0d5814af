import { IdSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import {
  OidcClientIdSchema,
  OidcClientSecretSchema,
  OidcIssuerSchema,
  OidcLabelSchema,
  OidcProviderSchema,
  OidcScopesSchema,
} from '../schemas/oidc.ts';
import { ORGANIZATION, resourceOps } from './resources.ts';
import { SsoMemberDefaultsShape } from './sso-settings.ts';

/** OpenID Connect sign-in providers of an organization. Quire only: GitBook has no such operations. */
const op = operationsOf('org-admin', { tags: ['sso'] });

const oidcProviderId = IdSchema.describe('The unique id of the OpenID Connect provider');
const QUIRE_ONLY = ' (Quire only: GitBook has no such operation)';

const settings = {
  clientSecret: OidcClientSecretSchema.nullable().optional(),
  scopes: OidcScopesSchema.optional(),
  ...SsoMemberDefaultsShape,
};

const oidc = resourceOps(op, { noun: 'oidc', in: ORGANIZATION, param: { oidcProviderId }, item: OidcProviderSchema });

export const listOIDCProvidersInOrganization = oidc.list(
  'listOIDCProvidersInOrganization',
  `List the OpenID Connect providers of an organization${QUIRE_ONLY}`,
);

export const createOrganizationOIDCProvider = oidc.create(
  'createOrganizationOIDCProvider',
  `Create an OpenID Connect provider${QUIRE_ONLY}`,
  { label: OidcLabelSchema, issuer: OidcIssuerSchema, clientId: OidcClientIdSchema, ...settings },
);

export const getOrganizationOIDCProviderById = oidc.get(
  'getOrganizationOIDCProviderById',
  `Get an OpenID Connect provider${QUIRE_ONLY}`,
);

export const updateOrganizationOIDCProvider = oidc.update(
  'updateOrganizationOIDCProvider',
  `Update an OpenID Connect provider${QUIRE_ONLY}`,
  {
    label: OidcLabelSchema.optional(),
    issuer: OidcIssuerSchema.optional(),
    clientId: OidcClientIdSchema.optional(),
    ...settings,
  },
);

export const deleteOrganizationOIDCProvider = oidc.delete(
  'deleteOrganizationOIDCProvider',
  `Delete an OpenID Connect provider${QUIRE_ONLY}`,
  204,
);
