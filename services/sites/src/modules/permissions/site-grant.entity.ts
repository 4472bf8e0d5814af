import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Role } from '@quire/contracts';

/** A user's or a team's role override on one site (`inviteToSite`): null for no access; dropped with the site. */
export const SiteGrant = defineEntity({
  name: 'SiteGrant',
  tableName: 'site_grant',
  properties: {
    siteId: p.string().primary(),
    principalKind: p.string().$type<'user' | 'team'>().primary(),
    principalId: p.string().primary(),
    organizationId: p.string(),
    role: p.string().$type<Role>().nullable(),
    grantedAt: p.datetime(),
  },
});
export type ISiteGrant = InferEntity<typeof SiteGrant>;
