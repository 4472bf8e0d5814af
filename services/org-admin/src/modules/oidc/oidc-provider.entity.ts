import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { Role } from '@quire/contracts';
import { singleUseColumns } from '../sign-in/sign-in.entity.ts';

/** An OpenID Connect provider members of an organization sign in with (Quire only). */
export const OidcProvider = defineEntity({
  name: 'OidcProvider',
  tableName: 'oidc_provider',
  properties: {
    ...idColumn(),
    organizationId: p.string(),
    label: p.string(),
    issuer: p.string(),
    clientId: p.string(),
    /** Sealed with the kit's SecretBox (aad `oidc:<id>`), or null for a public client. */
    clientSecret: p.string().nullable(),
    /** Space-separated, `openid` and `email` included. */
    scopes: p.string(),
    defaultTeamId: p.string().nullable(),
    defaultRole: p.string().$type<Role | null>().nullable(),
    ...timestampColumns(),
  },
});
export type IOidcProvider = InferEntity<typeof OidcProvider>;

/** A sign-in in progress at an identity provider: the SHA-256 of its state (OIDC) or RelayState (SAML). */
export const SsoFlow = defineEntity({
  name: 'SsoFlow',
  tableName: 'sso_flow',
  properties: {
    hash: p.string().primary(),
    kind: p.string().$type<'oidc' | 'saml'>(),
    providerId: p.string(),
    next: p.string(),
    codeVerifier: p.string().nullable(),
    nonce: p.string().nullable(),
    requestId: p.string().nullable(),
    ...singleUseColumns(),
  },
});
export type ISsoFlow = InferEntity<typeof SsoFlow>;

/** A SAML assertion already consumed, kept until it expires: the same assertion is refused a second time. */
export const SamlAssertion = defineEntity({
  name: 'SamlAssertion',
  tableName: 'saml_assertion',
  properties: {
    ...idColumn(),
    expiresAt: p.datetime(),
  },
});

/** The user an identity of a provider (OIDC `sub`, SAML NameID) signs in as. */
export const SsoIdentity = defineEntity({
  name: 'SsoIdentity',
  tableName: 'sso_identity',
  properties: {
    providerId: p.string().primary(),
    subject: p.string().primary(),
    userId: p.string(),
    createdAt: p.datetime(),
  },
});

/**
 * A link of an identity (provider, subject) to an existing account, asked for by the provider's callback and waiting
 * for the signed-in owner of that account to confirm it (a POST with CSRF from the confirmation page). SHA-256 of
 * the page's token.
 */
export const SsoLink = defineEntity({
  name: 'SsoLink',
  tableName: 'sso_link',
  properties: {
    hash: p.string().primary(),
    kind: p.string().$type<'oidc' | 'saml'>(),
    providerId: p.string(),
    subject: p.string(),
    userId: p.string(),
    name: p.string().nullable(),
    next: p.string(),
    ...singleUseColumns(),
  },
});
export type ISsoLink = InferEntity<typeof SsoLink>;
