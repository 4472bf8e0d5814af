import type { SamlProvider as SamlProviderDto, Team } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import { withDefaultTeam, type TeamPresentContext } from '../teams/team.presenter.ts';
import type { ISamlProvider } from './saml-provider.entity.ts';

/**
 * Where the identity provider talks to Quire for this provider. Quire does not serve these SAML
 * endpoints yet: they are the addresses the SAML login will have, derived from QUIRE_PUBLIC_URL.
 */
export function samlServiceUrls(urls: PublicUrls, providerId: string) {
  const base = urls.page(`/saml/${providerId}`);
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/** `active` once the provider can be used (SSO URL, entity ID and certificate set), `pending` before. */
export const samlStatus = (p: ISamlProvider): 'active' | 'pending' =>
  p.ssoUrl && p.entityId && p.certificate ? 'active' : 'pending';

export function presentSamlProvider(
  ctx: { urls: PublicUrls },
  p: ISamlProvider,
  defaultTeam: Team | undefined,
): SamlProviderDto {
  return {
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    ssoURL: p.ssoUrl ?? '',
    entityID: p.entityId ?? '',
    certificate: p.certificate ?? '',
    ...(defaultTeam ? { defaultTeam } : {}),
    defaultRole: p.defaultRole ?? null,
    createdAt: p.createdAt.toISOString(),
    status: samlStatus(p),
    service: samlServiceUrls(ctx.urls, p.id),
    urls: { location: ctx.urls.api(`/orgs/${p.organizationId}/saml/${p.id}`) },
  };
}

/** Providers with their default team (as the caller sees it): `many` (one batch of teams for the page) and `one`. */
export const samlProviders = withDefaultTeam<ISamlProvider, TeamPresentContext & { urls: PublicUrls }, SamlProviderDto>(
  presentSamlProvider,
);
