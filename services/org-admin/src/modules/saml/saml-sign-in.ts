import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import type { PublicUrls } from '@quire/kit';
import type { ISamlProvider } from './saml-provider.entity.ts';
import { samlServiceUrls } from './saml.presenter.ts';

/** How far the clocks of Quire and the identity provider may differ (NotBefore, NotOnOrAfter). */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** How long an AuthnRequest waits for its answer. */
export const SAML_REQUEST_TTL_MS = 10 * 60 * 1000;
/** Largest SAMLResponse accepted (base64). */
export const MAX_SAML_RESPONSE_CHARS = 200_000;

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
];

/** node-saml's store of the AuthnRequest ids it waits answers for: here, the one id of the flow in progress. */
class OneRequestCache implements CacheProvider {
  readonly items = new Map<string, string>();
  async saveAsync(key: string, value: string) {
    this.items.set(key, value);
    return { value, createdAt: Date.now() };
  }
  async getAsync(key: string) {
    return this.items.get(key) ?? null;
  }
  async removeAsync(key: string | null) {
    const v = key === null ? null : (this.items.get(key) ?? null);
    if (key !== null) this.items.delete(key);
    return v;
  }
}

function samlOf(urls: PublicUrls, provider: ISamlProvider, cache: CacheProvider): SAML {
  const service = samlServiceUrls(urls, provider.id);
  return new SAML({
    callbackUrl: service.acsURL,
    entryPoint: provider.ssoUrl ?? undefined,
    issuer: service.entityID,
    audience: service.entityID,
    idpIssuer: provider.entityId ?? undefined,
    idpCert: provider.certificate ?? '',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
    cacheProvider: cache,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}

/** The SP metadata of Quire for this provider (to paste into the identity provider). */
export function samlMetadata(urls: PublicUrls, provider: ISamlProvider): string {
  return samlOf(urls, provider, new OneRequestCache()).generateServiceProviderMetadata(null);
}

/** An AuthnRequest (HTTP-Redirect binding): the URL to send the browser to and the request's id. */
export async function samlAuthnRequest(
  urls: PublicUrls,
  provider: ISamlProvider,
  relayState: string,
): Promise<{ url: string; requestId: string }> {
  const cache = new OneRequestCache();
  const url = await samlOf(urls, provider, cache).getAuthorizeUrlAsync(relayState, undefined, {});
  const [requestId] = cache.items.keys();
  if (!requestId) throw new Error('node-saml recorded no request id');
  return { url, requestId };
}

export interface SamlIdentity {
  subject: string;
  email: string | null;
  name: string | null;
  assertionId: string;
  expiresAt: Date;
}

/**
 * Refuses what no identity provider needs and signature wrapping feeds on, before node-saml parses the response:
 * comments, processing instructions (but the XML declaration), a DOCTYPE or entity (exclusive c14n drops comments,
 * so `a@b<!---->.evil` digests like `a@b.evil` while a careless reader sees `a@b`), and any number of assertions
 * but one.
 */
function assertPlainResponse(samlResponse: string): void {
  const xml = Buffer.from(samlResponse, 'base64')
    .toString('utf8')
    .replace(/^\uFEFF?<\?xml\s[^?]*\?>/, '');
  if (/<!--|<\?|<!DOCTYPE|<!ENTITY/i.test(xml)) throw new Error('comment, processing instruction or DOCTYPE');
  const assertions = xml.match(/<(?:[\w.-]+:)?(?:Encrypted)?Assertion[\s>/]/g)?.length ?? 0;
  if (assertions !== 1) throw new Error(`${assertions} assertions`);
}

const first = (v: unknown): string | null =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null;

/**
 * Validates a SAMLResponse (HTTP-POST binding) with node-saml: the assertion's signature with the stored
 * certificate, issuer, audience, NotBefore/NotOnOrAfter (60 s skew), InResponseTo the flow's own request, and
 * here the recipient. Throws when any check fails.
 */
export async function samlValidate(
  urls: PublicUrls,
  provider: ISamlProvider,
  samlResponse: string,
  requestId: string,
  requestedAt: Date,
): Promise<SamlIdentity> {
  assertPlainResponse(samlResponse);
  const cache = new OneRequestCache();
  cache.items.set(requestId, requestedAt.toISOString());
  const { profile, loggedOut } = await samlOf(urls, provider, cache).validatePostResponseAsync({
    SAMLResponse: samlResponse,
  });
  if (!profile || loggedOut) throw new Error('no assertion');
  const xml = profile.getAssertionXml?.() ?? '';
  const assertionId = /<(?:[\w-]+:)?Assertion\b[^>]*?\sID="([^"]+)"/.exec(xml)?.[1];
  if (!assertionId) throw new Error('assertion without ID');
  const recipient = /<(?:[\w-]+:)?SubjectConfirmationData\b[^>]*?\sRecipient="([^"]+)"/.exec(xml)?.[1];
  if (recipient !== undefined && recipient !== samlServiceUrls(urls, provider.id).acsURL)
    throw new Error('wrong recipient');
  const notOnOrAfter = /<(?:[\w-]+:)?Conditions\b[^>]*?\sNotOnOrAfter="([^"]+)"/.exec(xml)?.[1];
  const until = notOnOrAfter ? new Date(notOnOrAfter).getTime() + SAML_CLOCK_SKEW_MS : NaN;
  const email =
    EMAIL_ATTRIBUTES.map((a) => first(profile[a])).find((v) => v) ??
    (/^[^@\s]+@[^@\s]+$/.test(profile.nameID) ? profile.nameID : null);
  return {
    subject: profile.nameID,
    email: email ? email.trim().toLowerCase() : null,
    name:
      NAME_ATTRIBUTES.map((a) => first(profile[a]))
        .find((v) => v)
        ?.slice(0, 100) ?? null,
    assertionId,
    expiresAt: new Date(Number.isFinite(until) ? until : Date.now() + 24 * 60 * 60 * 1000),
  };
}
