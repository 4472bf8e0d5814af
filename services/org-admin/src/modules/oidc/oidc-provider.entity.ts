import { p, type InferEntity } from '@mikro-orm/core';
import { defineTable, idColumn, timestampColumns } from '@quire/kit';
import type { Role } from '@quire/contracts';
import { singleUseColumns } from '../sign-in/sign-in.entity.ts';

/** An OpenID Connect provider members of an organization sign in with (Quire only). */
export const OidcProvider = defineTable('OidcProvider', 'oidc_provider', {
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
});
export type IOidcProvider = InferEntity<typeof OidcProvider>;

/** A sign-in in progress at an identity provider: the SHA-256 of its state (OIDC) or RelayState (SAML). */
export const SsoFlow = defineTable('SsoFlow', 'sso_flow', {
  hash: p.string().primary(),
  kind: p.string().$type<'oidc' | 'saml'>(),
  providerId: p.string(),
  next: p.string(),
  codeVerifier: p.string().nullable(),
  nonce: p.string().nullable(),
  requestId: p.string().nullable(),
  ...singleUseColumns(),
});
export type ISsoFlow = InferEntity<typeof SsoFlow>;

/** A SAML assertion already consumed, kept until it expires: the same assertion is refused a second time. */
export const SamlAssertion = defineTable('SamlAssertion', 'saml_assertion', {
  ...idColumn(),
  expiresAt: p.datetime(),
});

/** The user an identity of a provider (OIDC `sub`, SAML NameID) signs in as. */
export const SsoIdentity = defineTable('SsoIdentity', 'sso_identity', {
  providerId: p.string().primary(),
  subject: p.string().primary(),
  userId: p.string(),
  createdAt: p.datetime(),
});
