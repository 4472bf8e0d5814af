import type { Organization as OrganizationDto } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { IOrganization } from './organization.entity.ts';
import type { OrganizationPermissions } from './organization.policy.ts';

export function presentOrganization(ctx: { urls: PublicUrls }, o: IOrganization, permissions: OrganizationPermissions): OrganizationDto {
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
    plan: 'internal',
    trial: { status: 'notapplicable', count: 0 },
    urls: { location: ctx.urls.api(`/orgs/${o.id}`), app: ctx.urls.page(`/o/${o.id}`) },
    permissions,
  };
}
