import { z } from 'zod';
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
import { ORGANIZATION, resourceOps } from './resources.ts';
import { SsoMemberDefaultsShape } from './sso-settings.ts';

const op = operationsOf('org-admin', { tags: ['sso'] });

const settings = {
  entityID: SamlEntityIdSchema.optional(),
  certificate: SamlCertificateSchema.optional(),
  ssoURL: SamlSsoUrlSchema.optional(),
  ...SsoMemberDefaultsShape,
};

const saml = resourceOps(op, { noun: 'saml', in: ORGANIZATION, param: { samlProviderId }, item: SamlProviderSchema });

export const listSAMLProvidersInOrganizationById = saml.list(
  'listSAMLProvidersInOrganizationById',
  'List the SAML providers of an organization',
);

export const createOrganizationSAMLProvider = saml.create('createOrganizationSAMLProvider', 'Create a SAML provider', {
  label: SamlLabelSchema,
  ...settings,
});

export const getOrganizationSAMLProviderById = saml.get('getOrganizationSAMLProviderById', 'Get a SAML provider');

export const updateOrganizationSAMLProvider = saml.update('updateOrganizationSAMLProvider', 'Update a SAML provider', {
  label: SamlLabelSchema.optional(),
  ...settings,
});

export const deleteOrganizationSAMLProvider = saml.delete(
  'deleteOrganizationSAMLProvider',
  'Delete a SAML provider',
  204,
);

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
