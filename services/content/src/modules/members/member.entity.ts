import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Role } from '@quire/contracts';

/**
 * The content service's view of organization memberships, kept from org-admin's `member.*` events:
 * what a member's role is when someone else asks for that member's spaces.
 */
export const Member = defineEntity({
  name: 'Member',
  tableName: 'member',
  properties: {
    organizationId: p.string().primary(),
    userId: p.string().primary(),
    role: p.string().$type<Role>().nullable(),
    /** When the last applied event happened: an older event arriving late changes nothing. */
    eventAt: p.datetime(),
  },
});
export type IMember = InferEntity<typeof Member>;
