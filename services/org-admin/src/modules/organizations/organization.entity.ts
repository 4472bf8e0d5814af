import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Role } from '@quire/contracts';

export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.string().primary(),
    title: p.string(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    emailDomains: p.json<string[]>(),
    hostname: p.string().nullable().unique(),
    defaultRole: p.string().$type<Role | null>().nullable(),
    inviteLinks: p.boolean().default(false),
    type: p.string().$type<'business' | 'community'>().default('business'),
  },
});
export type IOrganization = InferEntity<typeof Organization>;

export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'membership',
  properties: {
    organizationId: p.string().primary(),
    userId: p.string().primary().index(),
    role: p.string().$type<Role | null>().nullable(),
    joinedAt: p.datetime(),
    lastSeenAt: p.datetime().nullable(),
    sso: p.boolean().default(false),
  },
});
export type IMembership = InferEntity<typeof Membership>;
