import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { selfSignedKeyPair } from '@quire/kit/testing';

/** Test only: a SAML identity provider made in the test — its key pairs (openssl) and the responses it signs. */
export interface TestIdpKeys {
  /** The identity provider's key and certificate (the certificate is configured in Quire). */
  key: string;
  cert: string;
  /** A key the identity provider does not have (a forged signature). */
  otherKey: string;
}

export function makeIdpKeys(): TestIdpKeys {
  return { ...selfSignedKeyPair('idp'), otherKey: selfSignedKeyPair('other').key };
}

export interface TestAssertion {
  idp: string;
  inResponseTo: string;
  email: string;
  acs: string;
  audience: string;
  recipient?: string;
  /** Seconds from now the assertion stops being valid (negative: expired). */
  validFor?: number;
  /** The key signing it (the identity provider's by default). */
  key: string;
  cert: string;
  /** Changes the XML after it is signed. */
  tamper?: (xml: string) => string;
  /** What the identity provider signs: the assertion (default), the whole response, or both. */
  sign?: 'assertion' | 'response' | 'both';
}

/** A base64 SAML Response with its assertion (or response) signed (RSA-SHA256, exclusive c14n) by xml-crypto's public API. */
export function signedSamlResponse(a: TestAssertion): string {
  const now = Date.now();
  const iso = (s: number) => new Date(now + s * 1000).toISOString();
  const validFor = a.validFor ?? 300;
  const issued = validFor < 0 ? validFor - 600 : 0;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(issued)}" Destination="${a.acs}" InResponseTo="${a.inResponseTo}">` +
    `<saml:Issuer>${a.idp}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="_a${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(issued)}"><saml:Issuer>${a.idp}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${a.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${a.inResponseTo}" NotOnOrAfter="${iso(validFor)}" Recipient="${a.recipient ?? a.acs}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(issued - 60)}" NotOnOrAfter="${iso(validFor)}"><saml:AudienceRestriction><saml:Audience>${a.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(issued)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>Sam Lee</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`;
  const sign = a.sign ?? 'assertion';
  let signed = xml;
  if (sign !== 'response') signed = signedOver(signed, 'Assertion', a);
  if (sign !== 'assertion') signed = signedOver(signed, 'Response', a);
  return Buffer.from((a.tamper ?? ((x) => x))(signed)).toString('base64');
}

/** The XML with an enveloped signature (RSA-SHA256, exclusive c14n) over its `element`, after that one's Issuer. */
function signedOver(xml: string, element: 'Assertion' | 'Response', a: { key: string; cert: string }): string {
  const sig = new SignedXml({
    privateKey: a.key,
    publicCert: a.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: `//*[local-name(.)='${element}']`,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  sig.computeSignature(xml, {
    location: { reference: `//*[local-name(.)='${element}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

/** The AuthnRequest of a redirect to the identity provider: its id and the RelayState. */
export function authnRequestOf(location: string): {
  requestId: string;
  relayState: string;
  request: string;
  endpoint: string;
} {
  const url = new URL(location);
  const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return {
    requestId: /\sID="([^"]+)"/.exec(request)![1]!,
    relayState: url.searchParams.get('RelayState')!,
    request,
    endpoint: url.origin + url.pathname,
  };
}
