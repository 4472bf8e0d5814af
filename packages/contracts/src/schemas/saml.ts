import { z } from 'zod';
import { RoleOrGuestSchema, TimestampSchema, UrlSchema } from '../common.ts';
import { TeamSchema } from './team.ts';

export const SamlLabelSchema = z
  .string()
  .trim()
  .min(1)
  .max(30)
  .describe('Label of the provider, shown on the login page (1..30)');
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
    id: z.string().describe('Unique identifier of the provider'),
    label: z.string().describe('Label of the provider'),
    ssoURL: UrlSchema.describe('Single sign-on URL of the identity provider; empty until configured'),
    entityID: z.string().describe('Entity ID of the identity provider; empty until configured'),
    certificate: z.string().describe('PEM certificate of the identity provider; empty until configured'),
    defaultTeam: TeamSchema.optional().describe('Team new SSO members join'),
    defaultRole: RoleOrGuestSchema.describe('Role of new SSO members (null: guest)'),
    createdAt: TimestampSchema,
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
    id: z.string().describe('Unique identifier of the provider'),
    label: z.string().describe('Label of the provider'),
    startURL: UrlSchema.describe('Login start URL for the provider'),
  })
  .describe('SSOProviderLoginInfo');
