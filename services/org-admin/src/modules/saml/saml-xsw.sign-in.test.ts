import { beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';
import { CookieJar, signInRequest } from '../oidc/oidc-provider.testing.ts';
import { SsoIdentity } from '../oidc/oidc-provider.entity.ts';
import { SESSION_COOKIE } from '../sessions/sessions.ts';
import { contentWithoutSpaces } from '../teams/team-spaces.testing.ts';
import { User } from '../users/user.entity.ts';
import { authnRequestOf, makeIdpKeys, signedSamlResponse, type TestIdpKeys } from './saml-idp.testing.ts';

/**
 * XML signature wrapping (XSW) and its relatives against Quire's assertion consumer service: the attacker holds a
 * response the identity provider really signed for the attacker's own address, answering a sign-in the attacker
 * started, and rearranges it so that a careless consumer reads another address (the victim's) while the signature
 * still verifies over the original. Every variant must be refused: no session, no user, no linked identity.
 */
const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'samlxsw' });
const IDP = 'https://idp.example/xsw';

let keys: TestIdpKeys;
beforeAll(() => {
  keys = makeIdpKeys();
  contentWithoutSpaces(t.svc.deps.peers);
});

const quire = (jar: CookieJar, method: 'GET' | 'POST', url: string, form?: Record<string, string>) =>
  signInRequest(t, '127.0.0.17', jar, method, url, form);

const ASSERTION = /<saml:Assertion\b[\s\S]*<\/saml:Assertion>/;
const SIGNATURE = /<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">[\s\S]*?<\/Signature>/;
const assertionOf = (xml: string) => ASSERTION.exec(xml)![0];
const signatureOf = (xml: string) => SIGNATURE.exec(assertionOf(xml))![0];

describe('SAML sign-in refuses XML signature wrapping', () => {
  it('refuses every known variant and still signs in from the untouched response', async () => {
    const { admin, organizationId } = await seedOrganization(t, {});
    const provider = await t.call(
      ops.createOrganizationSAMLProvider,
      { organizationId, label: 'XSW IdP', ssoURL: 'https://idp.example/sso', entityID: IDP, certificate: keys.cert },
      admin.actor,
    );
    const started = await quire(new CookieJar(), 'GET', `/saml/${provider.id}/start`);
    const flow = authnRequestOf(started.headers.location!);
    const attacker = `mallory-${Date.now()}@attacker.example`;
    const victim = `victim-${Date.now()}@victim.example`;
    const signed = (tamper: (xml: string) => string, sign: 'assertion' | 'response' | 'both' = 'assertion') =>
      signedSamlResponse({
        idp: IDP,
        inResponseTo: flow.requestId,
        email: attacker,
        acs: provider.service.acsURL,
        audience: provider.service.entityID,
        key: keys.key,
        cert: keys.cert,
        tamper,
        sign,
      });
    /** The attacker's assertion turned into the victim's: another ID, the victim's address, no signature. */
    const evil = (assertion: string, keepSignature = false) => {
      const a = assertion.replace(/ ID="[^"]+"/, ' ID="_evil"').replaceAll(attacker, victim);
      return keepSignature ? a : a.replace(SIGNATURE, '');
    };
    const sameIdEvil = (assertion: string) => assertion.replace(SIGNATURE, '').replaceAll(attacker, victim);
    const variants: [string, string][] = [
      // Assertion wrapping (XSW3–XSW8).
      ['XSW3: evil assertion before the signed one', signed((x) => x.replace(ASSERTION, (a) => evil(a) + a))],
      [
        'XSW4: evil assertion wrapping the signed one',
        signed((x) => x.replace(ASSERTION, (a) => evil(a).replace('</saml:Assertion>', `${a}</saml:Assertion>`))),
      ],
      [
        'XSW5: evil assertion with the copied signature, the original appended',
        signed((x) =>
          x.replace(ASSERTION, (a) => evil(a, true)).replace('</samlp:Response>', `${assertionOf(x)}</samlp:Response>`),
        ),
      ],
      [
        'XSW6: evil assertion whose signature holds the original in an Object',
        signed((x) =>
          x.replace(ASSERTION, (a) =>
            evil(a, true).replace('</Signature>', `<Object>${a.replace(SIGNATURE, '')}</Object></Signature>`),
          ),
        ),
      ],
      [
        'XSW7: the signed assertion hidden in Extensions, the evil one beside it',
        signed((x) => x.replace(ASSERTION, (a) => `<samlp:Extensions>${a}</samlp:Extensions>${evil(a)}`)),
      ],
      [
        'XSW8: evil assertion with the signature, the original (unsigned) in its Object',
        signed((x) =>
          x.replace(ASSERTION, (a) =>
            evil(a, true)
              .replace('</Signature>', `<Object>${a.replace(SIGNATURE, '')}</Object></Signature>`)
              .replace(' ID="_evil"', ` ID="${/ ID="([^"]+)"/.exec(a)![1]}"`),
          ),
        ),
      ],
      [
        'duplicate ID: an unsigned twin with the same ID first',
        signed((x) => x.replace(ASSERTION, (a) => sameIdEvil(a) + a)),
      ],
      [
        'duplicate ID: an unsigned twin with the same ID after',
        signed((x) => x.replace(ASSERTION, (a) => a + sameIdEvil(a))),
      ],
      ['duplicate assertions: the signed one twice', signed((x) => x.replace(ASSERTION, (a) => a + a))],
      ['unsigned assertion after the signed one', signed((x) => x.replace(ASSERTION, (a) => a + evil(a)))],
      ['the signature removed', signed((x) => x.replace(ASSERTION, (a) => sameIdEvil(a)))],
      [
        'the signature moved out of the assertion',
        signed((x) => x.replace(ASSERTION, (a) => signatureOf(x) + sameIdEvil(a))),
      ],
      // Response wrapping (XSW1, XSW2): the response signed, its assertion not.
      [
        'XSW1: a new response around the signed one (in the Signature)',
        signed((x) => {
          const inner = x.replace(/<samlp:Response /, '<samlp:Response ').replace(/ ID="_r[^"]+"/, (m) => m);
          const outer = x
            .replace(/ ID="_r[^"]+"/, ' ID="_evil_response"')
            .replaceAll(attacker, victim)
            .replace(/<Signature [\s\S]*?<\/Signature>/, (sig) =>
              sig.replace('</Signature>', `<Object>${inner}</Object></Signature>`),
            );
          return outer;
        }, 'response'),
      ],
      [
        'XSW2: the signed response detached before an evil one',
        signed(
          (x) =>
            x
              .replaceAll(attacker, victim)
              .replace(/ ID="_r[^"]+"/, ' ID="_evil_response"')
              .replace('</samlp:Response>', `${x}</samlp:Response>`),
          'response',
        ),
      ],
      ['a signed response with its assertion changed', signed((x) => x.replaceAll(attacker, victim), 'response')],
      ['a signed response whose assertion is unsigned', signed((x) => x, 'response')],
      // Comment and entity tricks on the signed text (exclusive c14n drops comments: the digest still matches).
      [
        'a comment in the NameID (the IdP signed victim@….attacker.example)',
        signedSamlResponse({
          idp: IDP,
          inResponseTo: flow.requestId,
          email: `${victim}.attacker.example`,
          acs: provider.service.acsURL,
          audience: provider.service.entityID,
          key: keys.key,
          cert: keys.cert,
          tamper: (x) => x.replace(`>${victim}.attacker.example<`, `>${victim}<!---->.attacker.example<`),
        }),
      ],
      [
        'a comment splitting the NameID',
        signed((x) => x.replace(`>${attacker}<`, `>${attacker.replace('@', '<!-- -->@')}<`)),
      ],
      [
        'a DOCTYPE with an internal entity',
        signed((x) => `<!DOCTYPE r [<!ENTITY v "${victim}">]>${x.replace(`>${attacker}<`, '>&v;<')}`),
      ],
      ['a processing instruction in the NameID', signed((x) => x.replace(`>${attacker}<`, `>${attacker}<?x y?><`))],
      [
        'a signature by another key',
        signedSamlResponse({
          idp: IDP,
          inResponseTo: flow.requestId,
          email: victim,
          acs: provider.service.acsURL,
          audience: provider.service.entityID,
          key: keys.otherKey,
          cert: keys.cert,
        }),
      ],
    ];
    for (const [why, response] of variants) {
      const browser = new CookieJar();
      const res = await quire(browser, 'POST', `/saml/${provider.id}/acs`, {
        SAMLResponse: response,
        RelayState: flow.relayState,
      });
      expect(res.status, why).toBe(401);
      expect(browser.cookies.has(SESSION_COOKIE), why).toBe(false);
    }
    for (const email of [victim, attacker, `${victim}.attacker.example`])
      expect(await t.em().count(User, { email })).toBe(0);
    expect(await t.em().count(SsoIdentity, { providerId: provider.id })).toBe(0);

    // The response as the identity provider signed it: accepted (the flow was not used up by the refusals).
    const browser = new CookieJar();
    const good = await quire(browser, 'POST', `/saml/${provider.id}/acs`, {
      SAMLResponse: signed((x) => x),
      RelayState: flow.relayState,
    });
    expect(good.status).toBe(303);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await t.em().count(User, { email: attacker })).toBe(1);
    expect(await t.em().count(User, { email: victim })).toBe(0);
  });
});
