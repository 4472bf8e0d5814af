import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape, RoleOrGuestSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import {
  OidcClientIdSchema,
  OidcClientSecretSchema,
  OidcIssuerSchema,
  OidcLabelSchema,
  OidcProviderSchema,
  OidcScopesSchema,
} from '../schemas/oidc.ts';

/** OpenID Connect sign-in providers of an organization. Quire only: GitBook has no such operations. */
const op = operationsOf('org-admin', { tags: ['sso'] });

const oidcProviderId = IdSchema.describe('The unique id of the OpenID Connect provider');
const QUIRE_ONLY = ' (Quire only: GitBook has no such operation)';

const settings = {
  clientSecret: OidcClientSecretSchema.nullable().optional(),
  scopes: OidcScopesSchema.optional(),
  defaultTeam: IdSchema.nullable()
    .optional()
    .describe('Id of a team of the organization new SSO members join (null: none)'),
  defaultRole: RoleOrGuestSchema.optional(),
};

export const listOIDCProvidersInOrganization = op({
  id: 'oidc.list',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(OidcProviderSchema),
  http: {
    route: 'GET /orgs/{organizationId}/oidc',
    operationId: 'listOIDCProvidersInOrganization',
    summary: `List the OpenID Connect providers of an organization${QUIRE_ONLY}`,
  },
});

export const createOrganizationOIDCProvider = op({
  id: 'oidc.create',
  input: z.object({
    organizationId,
    label: OidcLabelSchema,
    issuer: OidcIssuerSchema,
    clientId: OidcClientIdSchema,
    ...settings,
  }),
  output: OidcProviderSchema,
  http: {
    route: 'POST /orgs/{organizationId}/oidc',
    status: 201,
    operationId: 'createOrganizationOIDCProvider',
    summary: `Create an OpenID Connect provider${QUIRE_ONLY}`,
  },
});

export const getOrganizationOIDCProviderById = op({
  id: 'oidc.get',
  input: z.object({ organizationId, oidcProviderId }),
  output: OidcProviderSchema,
  http: {
    route: 'GET /orgs/{organizationId}/oidc/{oidcProviderId}',
    operationId: 'getOrganizationOIDCProviderById',
    summary: `Get an OpenID Connect provider${QUIRE_ONLY}`,
  },
});

export const updateOrganizationOIDCProvider = op({
  id: 'oidc.update',
  input: z.object({
    organizationId,
    oidcProviderId,
    label: OidcLabelSchema.optional(),
    issuer: OidcIssuerSchema.optional(),
    clientId: OidcClientIdSchema.optional(),
    ...settings,
  }),
  output: OidcProviderSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/oidc/{oidcProviderId}',
    operationId: 'updateOrganizationOIDCProvider',
    summary: `Update an OpenID Connect provider${QUIRE_ONLY}`,
  },
});

export const deleteOrganizationOIDCProvider = op({
  id: 'oidc.delete',
  input: z.object({ organizationId, oidcProviderId }),
  output: z.void(),
  http: {
    route: 'DELETE /orgs/{organizationId}/oidc/{oidcProviderId}',
    status: 204,
    operationId: 'deleteOrganizationOIDCProvider',
    summary: `Delete an OpenID Connect provider${QUIRE_ONLY}`,
  },
});
