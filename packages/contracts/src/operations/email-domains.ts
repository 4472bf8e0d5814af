import { operationsOf } from '../operation.ts';
import { EmailDomainNameSchema, EmailDomainSchema } from '../schemas/email-domain.ts';
import { ORGANIZATION, resourceOps } from './resources.ts';

/** E-mail domains an organization proves it owns by DNS. Quire only: GitBook has no such operations. */
const op = operationsOf('org-admin', { tags: ['sso'] });

const QUIRE_ONLY = ' (Quire only: GitBook has no such operation)';
const emailDomain = EmailDomainNameSchema;

const domains = resourceOps(op, {
  noun: 'emailDomains',
  path: 'email-domains',
  in: ORGANIZATION,
  param: { emailDomain },
  item: EmailDomainSchema,
});

export const listOrganizationEmailDomains = domains.list(
  'listOrganizationEmailDomains',
  `List the e-mail domains an organization claims${QUIRE_ONLY}`,
);

export const upsertOrganizationEmailDomain = domains.upsert(
  'upsertOrganizationEmailDomain',
  `Claim an e-mail domain and check its DNS TXT record now${QUIRE_ONLY}`,
  {},
  'PUT',
);

export const getOrganizationEmailDomain = domains.get(
  'getOrganizationEmailDomain',
  `Get an e-mail domain of an organization${QUIRE_ONLY}`,
);

export const deleteOrganizationEmailDomain = domains.delete(
  'deleteOrganizationEmailDomain',
  `Give up an e-mail domain${QUIRE_ONLY}`,
  204,
);
