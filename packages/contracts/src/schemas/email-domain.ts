import { z } from 'zod';
import { TimestampSchema, UrlSchema } from '../common.ts';

/** A DNS name of an e-mail domain: lowercase labels of letters, digits and hyphens (max 253). */
export const EmailDomainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    'a domain name such as acme.io (letters, digits, hyphens and dots)',
  )
  .describe('E-mail domain, such as `acme.io`');

export const EmailDomainSchema = z
  .object({
    object: z.literal('email-domain').describe('Always `email-domain`'),
    domain: z.string().describe('The e-mail domain'),
    verified: z
      .boolean()
      .describe(
        "Whether the TXT record was found at the last check: the organization's identity providers then sign in the existing accounts of this domain without their owner's confirmation",
      ),
    createdAt: TimestampSchema,
    checkedAt: TimestampSchema.optional().describe('When the TXT record was last looked up'),
    verifiedAt: TimestampSchema.optional().describe('When the TXT record was found (absent: not verified)'),
    record: z
      .object({
        type: z.literal('TXT').describe('Always `TXT`'),
        name: z.string().describe('Name of the record: `_quire-verification.<domain>`'),
        value: z.string().describe('Value of the record: `quire-verification=<token>`'),
      })
      .describe('The DNS record that proves the organization owns the domain'),
    urls: z.object({ location: UrlSchema.describe('URL of the domain in the API') }),
  })
  .describe('EmailDomain (Quire only)');
export type EmailDomain = z.infer<typeof EmailDomainSchema>;
