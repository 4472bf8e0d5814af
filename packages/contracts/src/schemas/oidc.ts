import { z } from 'zod';
import { UrlSchema } from '../common.ts';
import { SsoLabelSchema, SsoNewMembersShape, SsoProviderNameShape } from './sso.ts';

export const OidcLabelSchema = SsoLabelSchema;
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
    ...SsoProviderNameShape,
    issuer: UrlSchema.describe('Issuer URL of the OpenID provider'),
    clientId: z.string().describe('Client id at the provider'),
    hasClientSecret: z.boolean().describe('Whether a client secret is stored (it is never returned)'),
    scopes: z.array(z.string()).describe('Scopes asked for'),
    ...SsoNewMembersShape,
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
