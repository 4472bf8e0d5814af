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

export const listSAMLProvidersInOrganizationById = saml.list({
  operationId: 'listSAMLProvidersInOrganizationById',
  summary: 'List the SAML providers of an organization',
});

export const createOrganizationSAMLProvider = saml.create(
  { label: SamlLabelSchema, ...settings },
  { operationId: 'createOrganizationSAMLProvider', summary: 'Create a SAML provider' },
);

export const getOrganizationSAMLProviderById = saml.get({
  operationId: 'getOrganizationSAMLProviderById',
  summary: 'Get a SAML provider',
});

export const updateOrganizationSAMLProvider = saml.update(
  { label: SamlLabelSchema.optional(), ...settings },
  { operationId: 'updateOrganizationSAMLProvider', summary: 'Update a SAML provider' },
);

export const deleteOrganizationSAMLProvider = saml.delete({
  status: 204,
  operationId: 'deleteOrganizationSAMLProvider',
  summary: 'Delete a SAML provider',
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
