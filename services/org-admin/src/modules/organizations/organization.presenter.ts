import type { Organization as OrganizationDto, UserActor } from '@quire/contracts';
import type { EntityManager, PublicUrls } from '@quire/kit';
import type { IOrganization } from './organization.entity.ts';
import {
  callerOrganizationPermissions,
  organizationPermissions,
  type OrganizationPermissions,
} from './organization.policy.ts';
import { organizationRepository } from './organization.repository.ts';

type CallerContext = { urls: PublicUrls; em: EntityManager; actor: UserActor };

export function presentOrganization(
  ctx: { urls: PublicUrls },
  o: IOrganization,
  permissions: OrganizationPermissions,
): OrganizationDto {
  return {
    object: 'organization',
    id: o.id,
    title: o.title,
    createdAt: o.createdAt.toISOString(),
    emailDomains: o.emailDomains,
    ...(o.hostname ? { hostname: o.hostname } : {}),
    type: o.type,
    defaultRole: o.defaultRole ?? null,
    sso: false,
    ai: false,
    inviteLinks: o.inviteLinks,
    mergeRules: o.mergeRules ?? { type: 'none' },
    plan: 'internal',
    trial: { status: 'notapplicable', count: 0 },
    urls: { location: ctx.urls.api(`/orgs/${o.id}`), app: ctx.urls.page(`/o/${o.id}`) },
    permissions,
  };
}

/** An organization the caller has just made: its admin (the caller's actor predates it). */
export const presentNewOrganization = (ctx: { urls: PublicUrls }, o: IOrganization): OrganizationDto =>
  presentOrganization(ctx, o, organizationPermissions('admin', false));

/** An organization as the caller sees it: its permissions from the caller's role (one query for `ownTeam`). */
export async function presentOrganizationForCaller(ctx: CallerContext, o: IOrganization): Promise<OrganizationDto> {
  const ownsTeam = (await organizationRepository.withOwnedTeams(ctx.em, ctx.actor.userId, o.id)).has(o.id);
  return presentOrganization(ctx, o, callerOrganizationPermissions(ctx.actor, o.id, ownsTeam));
}

/** Organizations as the caller sees them (one query for `ownTeam`, whatever their number). */
export async function presentOrganizationsForCaller<L extends { items: IOrganization[] }>(
  ctx: CallerContext,
  page: L,
): Promise<Omit<L, 'items'> & { items: OrganizationDto[] }> {
  const owned = await organizationRepository.withOwnedTeams(ctx.em, ctx.actor.userId);
  return {
    ...page,
    items: page.items.map((o) =>
      presentOrganization(ctx, o, callerOrganizationPermissions(ctx.actor, o.id, owned.has(o.id))),
    ),
  };
}
