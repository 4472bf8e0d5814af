import * as client from 'openid-client';
import { secretBoxOf } from '@quire/kit';
import type { OrgAdminConfig } from '../../env.ts';
import type { IOidcProvider } from './oidc-provider.entity.ts';
import { guardedOidcFetch } from './oidc-fetch.ts';

/** Discovered configurations, per provider and version of its settings, kept 10 minutes. */
const CACHE_MS = 10 * 60 * 1000;
const cache = new Map<string, { config: client.Configuration; at: number }>();

/** The openid-client configuration of a provider: its discovery document read through the SSRF-guarded fetch. */
export async function oidcConfiguration(
  config: OrgAdminConfig,
  provider: IOidcProvider,
): Promise<client.Configuration> {
  const key = `${provider.id}:${provider.updatedAt.getTime()}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.config;
  const secret = provider.clientSecret ? secretBoxOf(config).open(provider.clientSecret, `oidc:${provider.id}`) : null;
  const fetcher = guardedOidcFetch(config) as unknown as client.CustomFetch;
  const insecure = new URL(provider.issuer).protocol === 'http:';
  const discovered = await client.discovery(
    new URL(provider.issuer),
    provider.clientId,
    undefined,
    secret ? client.ClientSecretBasic(secret) : client.None(),
    { [client.customFetch]: fetcher, timeout: 10, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) },
  );
  discovered[client.customFetch] = fetcher;
  for (const [k, v] of cache) if (k.startsWith(`${provider.id}:`) || Date.now() - v.at >= CACHE_MS) cache.delete(k);
  cache.set(key, { config: discovered, at: Date.now() });
  return discovered;
}

export interface OidcStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The authorization request (code flow, PKCE S256, state and nonce) to send the browser to. */
export async function oidcAuthorizationRequest(
  configuration: client.Configuration,
  provider: IOidcProvider,
  redirectUri: string,
  state: string,
): Promise<OidcStart> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: provider.scopes,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, state, nonce, codeVerifier };
}

export interface SsoIdentityClaims {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/**
 * Exchanges the code of the callback (state, PKCE verifier, nonce, issuer and ID token checked by openid-client)
 * and reads who signed in: the ID token's claims, the userinfo endpoint's when the token has no e-mail.
 */
export async function oidcCallback(
  configuration: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<SsoIdentityClaims> {
  const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  let info: Record<string, unknown> = claims;
  if (typeof claims.email !== 'string')
    info = { ...(await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)) };
  const verified = info.email_verified === true || info.email_verified === 'true';
  return {
    subject: claims.sub,
    email: typeof info.email === 'string' ? info.email.trim().toLowerCase() : null,
    emailVerified: verified,
    name: typeof info.name === 'string' && info.name.trim() ? info.name.trim().slice(0, 100) : null,
  };
}
