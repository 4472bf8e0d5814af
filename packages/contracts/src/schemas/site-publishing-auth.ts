import { z } from 'zod';

export const PUBLISHING_AUTH_URL_MAX = 2048;

const HttpUrl = z.url({ protocol: /^https?$/, error: 'an absolute http(s) URL' }).max(PUBLISHING_AUTH_URL_MAX);

export const VisitorAuthBackendSchema = z
  .enum(['custom', 'integration'])
  .describe('Who signs the visitor tokens: `custom` (your backend, with `privateKey`) or `integration`');

export const SitePublishingAuthSchema = z
  .object({
    object: z.literal('publishing-auth').describe('Always `publishing-auth`'),
    backend: VisitorAuthBackendSchema,
    privateKey: z
      .string()
      .describe('Private key visitor JWTs are signed with (HS256, the key as the secret); keep it secret'),
    fallbackURL: z.string().optional().describe('URL visitors are sent to (to sign in) when they have no valid token'),
    logoutURL: z.string().optional().describe('URL that logs visitors out from the upstream auth backend'),
    integration: z
      .string()
      .optional()
      .describe('Name of the authenticated access integration installed on the site (if any)'),
  })
  .describe(
    'How the visitors of a `visitor-auth` site authenticate: the signing key and the sign-in and sign-out URLs',
  );
export type SitePublishingAuthDto = z.infer<typeof SitePublishingAuthSchema>;

export const SitePublishingAuthUpdateShape = {
  backend: VisitorAuthBackendSchema,
  fallbackURL: HttpUrl.nullable()
    .optional()
    .describe(
      `Sign-in URL used when authentication fails (http or https, max ${PUBLISHING_AUTH_URL_MAX}); ` +
        'null unsets it, absent keeps it',
    ),
  logoutURL: HttpUrl.nullable()
    .optional()
    .describe(
      `URL logging visitors out upstream (http or https, max ${PUBLISHING_AUTH_URL_MAX}); ` +
        'null unsets it, absent keeps it',
    ),
};
