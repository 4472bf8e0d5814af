import { z } from 'zod';
import { RoleOrGuestSchema, TimestampSchema, UrlSchema } from '../common.ts';
import { TeamSchema } from './team.ts';

export const OidcLabelSchema = z
  .string()
  .trim()
  .min(1)
  .max(30)
  .describe('Label of the provider, shown on the login page (1..30)');
export const OidcIssuerSchema = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .describe(
    'Issuer URL of the OpenID provider (its discovery document is `<issuer>/.well-known/openid-configuration`); https, or http on an instance allowing private fetches (max 2048)',
  );
export const OidcClientIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(512)
  .describe('Client id Quire is registered with at the provider (max 512)');
export const OidcClientSecretSchema = z
  .string()
  .min(1)
  .max(2048)
  .describe('Client secret (max 2048): write-only, stored encrypted; never returned');
export const OidcScopesSchema = z
  .array(
    z
      .string()
      .regex(
        /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/,
        'a scope is 1..100 printable characters without space, quote or backslash',
      ),
  )
  .max(20)
  .describe('Scopes asked for (max 20); `openid` and `email` are always asked');

export const OidcProviderSchema = z
  .object({
    object: z.literal('oidc-provider').describe('Always `oidc-provider`'),
    id: z.string().describe('Unique identifier of the provider'),
    label: z.string().describe('Label of the provider'),
    issuer: UrlSchema.describe('Issuer URL of the OpenID provider'),
    clientId: z.string().describe('Client id at the provider'),
    hasClientSecret: z.boolean().describe('Whether a client secret is stored (it is never returned)'),
    scopes: z.array(z.string()).describe('Scopes asked for'),
    defaultTeam: TeamSchema.optional().describe('Team new SSO members join'),
    defaultRole: RoleOrGuestSchema.describe('Role of new SSO members (null: guest)'),
    createdAt: TimestampSchema,
    service: z
      .object({
        redirectURL: UrlSchema.describe('Redirect URI to register at the provider'),
        startURL: UrlSchema.describe('Login start URL of Quire for this provider'),
      })
      .describe('What to configure in the OpenID provider'),
    urls: z.object({ location: UrlSchema.describe('URL of the provider in the API') }),
  })
  .describe('OIDCProvider (Quire only)');
export type OidcProvider = z.infer<typeof OidcProviderSchema>;
