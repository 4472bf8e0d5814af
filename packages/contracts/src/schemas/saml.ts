import { z } from 'zod';
import { UrlSchema } from '../common.ts';
import { SsoLabelSchema, SsoNewMembersShape, SsoProviderNameShape } from './sso.ts';

export const SamlLabelSchema = SsoLabelSchema;
export const SamlEntityIdSchema = z.string().max(1024).describe('Entity ID of the identity provider (max 1024)');
export const SamlCertificateSchema = z
  .string()
  .max(10_000)
  .describe('PEM-encoded X.509 certificate of the identity provider (max 10000)');
export const SamlSsoUrlSchema = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .describe('Single sign-on URL (http or https) of the identity provider (max 2048)');

export const SamlProviderSchema = z
  .object({
    object: z.literal('saml-provider').describe('Always `saml-provider`'),
    ...SsoProviderNameShape,
    ssoURL: UrlSchema.describe('Single sign-on URL of the identity provider; empty until configured'),
    entityID: z.string().describe('Entity ID of the identity provider; empty until configured'),
    certificate: z.string().describe('PEM certificate of the identity provider; empty until configured'),
    ...SsoNewMembersShape,
    status: z
      .enum(['active', 'pending'])
      .describe('`active` once `ssoURL`, `entityID` and `certificate` are set; `pending` before'),
    service: z
      .object({
        acsURL: UrlSchema.describe('Assertion Consumer Service URL of Quire for this provider'),
        startURL: UrlSchema.describe('Login start URL of Quire for this provider'),
        entityID: z.string().describe('Entity ID (metadata URL) of Quire as service provider'),
      })
      .describe('What to configure in the identity provider'),
    urls: z.object({ location: UrlSchema.describe('URL of the provider in the API') }),
  })
  .describe('SAMLProvider');
export type SamlProvider = z.infer<typeof SamlProviderSchema>;

export const SsoLoginInfoSchema = z
  .object({
    ...SsoProviderNameShape,
    startURL: UrlSchema.describe('Login start URL for the provider'),
  })
  .describe('SSOProviderLoginInfo');
