import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Role } from '@quire/contracts';

/** Who a grant gives a role to (a user or a team, part of the key), in which organization, which role and when. */
const grantColumns = () => ({
  principalKind: p.string().$type<'user' | 'team'>().primary(),
  principalId: p.string().primary(),
  organizationId: p.string(),
  role: p.string().$type<Role>(),
  grantedAt: p.datetime(),
});

/** A user's or a team's explicit role on one space (`inviteToSpace`); dropped with the space. */
export const SpaceGrant = defineEntity({
  name: 'SpaceGrant',
  tableName: 'space_grant',
  properties: {
    spaceId: p.string().primary(),
    ...grantColumns(),
  },
});
export type ISpaceGrant = InferEntity<typeof SpaceGrant>;

/** A user's or a team's explicit role on one collection (`inviteToCollection`), reaching the content inheriting from it. */
export const CollectionGrant = defineEntity({
  name: 'CollectionGrant',
  tableName: 'collection_grant',
  properties: {
    collectionId: p.string().primary(),
    ...grantColumns(),
  },
});
export type ICollectionGrant = InferEntity<typeof CollectionGrant>;

/** The content service's view of team membership, kept from org-admin's `team.*` events. */
export const TeamMemberView = defineEntity({
  name: 'TeamMemberView',
  tableName: 'team_member',
  properties: {
    teamId: p.string().primary(),
    userId: p.string().primary(),
    organizationId: p.string(),
    eventAt: p.datetime(),
  },
});
export type ITeamMemberView = InferEntity<typeof TeamMemberView>;
