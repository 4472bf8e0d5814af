import type { OidcProvider as OidcProviderDto, Team } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import { withDefaultTeam, type TeamPresentContext } from '../teams/team.presenter.ts';
import type { IOidcProvider } from './oidc-provider.entity.ts';

/** Where the OpenID provider sends people back, and where a sign-in with it starts. */
export function oidcServiceUrls(urls: PublicUrls, providerId: string) {
  const base = urls.page(`/oidc/${providerId}`);
  return { redirectURL: `${base}/callback`, startURL: `${base}/start` };
}

export function presentOidcProvider(
  ctx: { urls: PublicUrls },
  p: IOidcProvider,
  defaultTeam: Team | undefined,
): OidcProviderDto {
  return {
    object: 'oidc-provider',
    id: p.id,
    label: p.label,
    issuer: p.issuer,
    clientId: p.clientId,
    hasClientSecret: p.clientSecret !== null,
    scopes: p.scopes.split(' '),
    ...(defaultTeam ? { defaultTeam } : {}),
    defaultRole: p.defaultRole ?? null,
    createdAt: p.createdAt.toISOString(),
    service: oidcServiceUrls(ctx.urls, p.id),
    urls: { location: ctx.urls.api(`/orgs/${p.organizationId}/oidc/${p.id}`) },
  };
}

/** Providers with their default team (as the caller sees it): `many` (one batch of teams for the page) and `one`. */
export const oidcProviders = withDefaultTeam<IOidcProvider, TeamPresentContext & { urls: PublicUrls }, OidcProviderDto>(
  presentOidcProvider,
);
