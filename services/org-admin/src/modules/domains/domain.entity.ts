import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * An e-mail domain an organization claims (Quire only): verified once a DNS TXT record
 * `_quire-verification.<domain>` holds `quire-verification=<token>`. A verified domain lets the organization's
 * identity providers sign in the existing accounts of that domain without their owner's confirmation.
 */
export const OrganizationDomain = defineEntity({
  name: 'OrganizationDomain',
  tableName: 'organization_domain',
  properties: {
    organizationId: p.string().primary(),
    domain: p.string().primary(),
    token: p.string(),
    createdAt: p.datetime(),
    checkedAt: p.datetime().nullable(),
    verifiedAt: p.datetime().nullable(),
  },
});
export type IOrganizationDomain = InferEntity<typeof OrganizationDomain>;
