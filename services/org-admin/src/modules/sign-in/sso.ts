import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@quire/kit';
import type { OperationInput } from '@quire/contracts';
import type { ops } from '@quire/contracts';
import type { OrgAdminContext } from '../../trpc.ts';
import {
  oidcAuthorizationRequest,
  oidcCallback,
  oidcConfiguration,
  type SsoIdentityClaims,
} from '../oidc/oidc-client.ts';
import { OidcProvider, SsoFlow } from '../oidc/oidc-provider.entity.ts';
import { oidcServiceUrls } from '../oidc/oidc.presenter.ts';
import { cookie, same, signedCookie, signedCookieValue } from '../sessions/sessions.ts';

type Input = OperationInput<typeof ops.handleSignInRequest>;

/** The cookie binding a single sign-on in progress to the browser that started it (its state, signed). */
export const SSO_COOKIE = 'quire_sso';
export const FLOW_TTL_MS = 10 * 60 * 1000;

/** What the network part of a sign-in with an identity provider found, before the transaction. */
export type SsoPrepared =
  | { kind: 'oidc-start'; providerId: string; url: string; state: string; nonce: string; codeVerifier: string }
  | { kind: 'oidc-callback'; providerId: string; flowHash: string; identity: SsoIdentityClaims }
  | { kind: 'fail'; status: number; title: string; text: string };

const OIDC_PATH = /^\/oidc\/([A-Za-z0-9_-]{1,100})\/(start|callback)$/;
const fail = (status: number, title: string, text: string): SsoPrepared => ({ kind: 'fail', status, title, text });

/**
 * The part of an OpenID Connect sign-in that waits on the provider (discovery, code exchange, userinfo), run
 * outside any transaction (the mold's `implementPrepared`); null for every other page.
 */
export async function prepareSso(ctx: OrgAdminContext, input: Input): Promise<SsoPrepared | null> {
  const m = OIDC_PATH.exec(input.path.replace(/\/+$/, ''));
  if (!m || input.method !== 'GET') return null;
  const [, providerId, step] = m as unknown as [string, string, 'start' | 'callback'];
  const provider = await ctx.em.findOne(OidcProvider, { id: providerId });
  if (!provider) return fail(404, 'Sign-in not found', 'This single sign-on does not exist (any more).');
  const redirectUri = oidcServiceUrls(ctx.urls, provider.id).redirectURL;
  let flow: { hash: string; state: string; nonce: string; codeVerifier: string } | undefined;
  if (step === 'callback') {
    const state = input.query.state ?? '';
    const hash = sha256Hex(state);
    const row = await ctx.em.findOne(SsoFlow, { hash, kind: 'oidc', providerId });
    if (!row || row.usedAt || row.expiresAt <= new Date() || !row.codeVerifier || !row.nonce)
      return fail(
        410,
        'Sign-in expired',
        'This sign-in is expired, already used or was not started here. Start again.',
      );
    // Started in this browser: the state is the one of its own cookie (no sign-in forced on someone else).
    if (!same((await signedCookieValue(ctx.config, 'sso-state', input.cookies[SSO_COOKIE])) ?? '', state))
      return fail(403, 'Sign-in not started here', 'This sign-in was started in another browser. Start again.');
    if (input.query.error) return fail(401, 'Sign-in refused', 'The identity provider did not sign you in.');
    flow = { hash, state, nonce: row.nonce, codeVerifier: row.codeVerifier };
  }
  let configuration;
  try {
    configuration = await oidcConfiguration(ctx.config, provider);
  } catch (err) {
    ctx.log.warn({ err, provider: provider.id }, 'OpenID provider discovery failed');
    return fail(502, 'Identity provider unavailable', 'The identity provider cannot be reached. Try again later.');
  }
  if (!flow) {
    const start = await oidcAuthorizationRequest(
      configuration,
      provider,
      redirectUri,
      randomBytes(32).toString('base64url'),
    );
    return { kind: 'oidc-start', providerId, ...start };
  }
  const callbackUrl = new URL(redirectUri);
  for (const [k, v] of Object.entries(input.query)) callbackUrl.searchParams.set(k, v);
  try {
    const identity = await oidcCallback(configuration, callbackUrl, flow);
    return { kind: 'oidc-callback', providerId, flowHash: flow.hash, identity };
  } catch (err) {
    ctx.log.warn({ err, provider: provider.id }, 'OpenID Connect callback refused');
    return fail(401, 'Sign-in not verified', 'The answer of the identity provider could not be verified. Start again.');
  }
}

/** Set-Cookie of the flow's state (10 minutes), and the one clearing it. */
export const ssoCookie = async (config: OrgAdminContext['config'], state: string) =>
  cookie(
    config,
    SSO_COOKIE,
    await signedCookie(config, 'sso-state', state, Date.now() + FLOW_TTL_MS),
    FLOW_TTL_MS / 1000,
  );
export const ssoCookieCleared = `${SSO_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
