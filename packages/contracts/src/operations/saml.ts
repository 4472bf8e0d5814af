import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape, RoleOrGuestSchema } from '../common.ts';
import { defineOperation } from '../operation.ts';
import { SamlCertificateSchema, SamlEntityIdSchema, SamlLabelSchema, SamlProviderSchema, SamlSsoUrlSchema, SsoLoginInfoSchema } from '../schemas/saml.ts';

const organizationId = IdSchema.describe('The unique id of the organization');
const samlProviderId = IdSchema.describe('The unique id of the SAML provider');
const tags = ['sso'];
const settings = {
  entityID: SamlEntityIdSchema.optional(),
  certificate: SamlCertificateSchema.optional(),
  ssoURL: SamlSsoUrlSchema.optional(),
  defaultTeam: IdSchema.nullable().optional().describe('Id of a team of the organization new SSO members join (null: none)'),
  defaultRole: RoleOrGuestSchema.optional(),
};

export const listSAMLProvidersInOrganizationById = defineOperation({
  id: 'saml.list',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(SamlProviderSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/saml', status: 200, operationId: 'listSAMLProvidersInOrganizationById', summary: 'List the SAML providers of an organization', tags },
});

export const createOrganizationSAMLProvider = defineOperation({
  id: 'saml.create',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, label: SamlLabelSchema, ...settings }),
  output: SamlProviderSchema,
  http: { method: 'POST', path: '/orgs/{organizationId}/saml', status: 201, operationId: 'createOrganizationSAMLProvider', summary: 'Create a SAML provider', tags },
});

export const getOrganizationSAMLProviderById = defineOperation({
  id: 'saml.get',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, samlProviderId }),
  output: SamlProviderSchema,
  http: { method: 'GET', path: '/orgs/{organizationId}/saml/{samlProviderId}', status: 200, operationId: 'getOrganizationSAMLProviderById', summary: 'Get a SAML provider', tags },
});

export const updateOrganizationSAMLProvider = defineOperation({
  id: 'saml.update',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, samlProviderId, label: SamlLabelSchema.optional(), ...settings }),
  output: SamlProviderSchema,
  http: { method: 'PATCH', path: '/orgs/{organizationId}/saml/{samlProviderId}', status: 200, operationId: 'updateOrganizationSAMLProvider', summary: 'Update a SAML provider', tags },
});

export const deleteOrganizationSAMLProvider = defineOperation({
  id: 'saml.remove',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, samlProviderId }),
  output: z.void(),
  http: { method: 'DELETE', path: '/orgs/{organizationId}/saml/{samlProviderId}', status: 204, operationId: 'deleteOrganizationSAMLProvider', summary: 'Delete a SAML provider', tags },
});

export const listSSOProviderLoginsInOrganization = defineOperation({
  id: 'sso.list',
  service: 'org-admin',
  access: 'public',
  input: z.object({ organizationId }),
  output: z.object({ items: z.array(SsoLoginInfoSchema).describe('The active SAML providers of the organization') }),
  http: { method: 'GET', path: '/orgs/{organizationId}/sso', status: 200, operationId: 'listSSOProviderLoginsInOrganization', summary: 'List the SSO login options of an organization (no token needed)', tags },
});
