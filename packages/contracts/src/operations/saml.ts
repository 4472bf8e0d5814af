import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape, RoleOrGuestSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId, samlProviderId } from '../params.ts';
import {
  SamlCertificateSchema,
  SamlEntityIdSchema,
  SamlLabelSchema,
  SamlProviderSchema,
  SamlSsoUrlSchema,
  SsoLoginInfoSchema,
} from '../schemas/saml.ts';

const op = operationsOf('org-admin', { tags: ['sso'] });

const settings = {
  entityID: SamlEntityIdSchema.optional(),
  certificate: SamlCertificateSchema.optional(),
  ssoURL: SamlSsoUrlSchema.optional(),
  defaultTeam: IdSchema.nullable()
    .optional()
    .describe('Id of a team of the organization new SSO members join (null: none)'),
  defaultRole: RoleOrGuestSchema.optional(),
};

export const listSAMLProvidersInOrganizationById = op({
  id: 'saml.list',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(SamlProviderSchema),
  http: {
    route: 'GET /orgs/{organizationId}/saml',
    operationId: 'listSAMLProvidersInOrganizationById',
    summary: 'List the SAML providers of an organization',
  },
});

export const createOrganizationSAMLProvider = op({
  id: 'saml.create',
  input: z.object({ organizationId, label: SamlLabelSchema, ...settings }),
  output: SamlProviderSchema,
  http: {
    route: 'POST /orgs/{organizationId}/saml',
    status: 201,
    operationId: 'createOrganizationSAMLProvider',
    summary: 'Create a SAML provider',
  },
});

export const getOrganizationSAMLProviderById = op({
  id: 'saml.get',
  input: z.object({ organizationId, samlProviderId }),
  output: SamlProviderSchema,
  http: {
    route: 'GET /orgs/{organizationId}/saml/{samlProviderId}',
    operationId: 'getOrganizationSAMLProviderById',
    summary: 'Get a SAML provider',
  },
});

export const updateOrganizationSAMLProvider = op({
  id: 'saml.update',
  input: z.object({ organizationId, samlProviderId, label: SamlLabelSchema.optional(), ...settings }),
  output: SamlProviderSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/saml/{samlProviderId}',
    operationId: 'updateOrganizationSAMLProvider',
    summary: 'Update a SAML provider',
  },
});

export const deleteOrganizationSAMLProvider = op({
  id: 'saml.delete',
  input: z.object({ organizationId, samlProviderId }),
  output: z.void(),
  http: {
    route: 'DELETE /orgs/{organizationId}/saml/{samlProviderId}',
    status: 204,
    operationId: 'deleteOrganizationSAMLProvider',
    summary: 'Delete a SAML provider',
  },
});

export const listSSOProviderLoginsInOrganization = op({
  id: 'saml.listLogins',
  input: z.object({ organizationId }),
  output: z.object({ items: z.array(SsoLoginInfoSchema).describe('The active SAML providers of the organization') }),
  http: {
    route: 'GET /orgs/{organizationId}/sso',
    operationId: 'listSSOProviderLoginsInOrganization',
    summary: 'List the SSO login options of an organization',
  },
});
