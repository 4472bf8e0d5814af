// The single sign-on browser tests' shared pieces: Chromium reaching the instance under its public host, and the
// SAML identity provider's page (a form posting a signed response to Quire's ACS).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import {
  startTestOidcProvider,
  type TestOidcProvider,
} from '../../../../services/org-admin/src/modules/oidc/oidc-provider.testing.ts';
import {
  authnRequestOf,
  makeIdpKeys,
  signedSamlResponse,
  type TestIdpKeys,
} from '../../../../services/org-admin/src/modules/saml/saml-idp.testing.ts';
import { useChromium } from './browser.ts';

/** Chromium for one test file, reaching the instance at `url()` under its public host quire.test (no HTTPS upgrade). */
export function useChromiumAtPublicHost(url: () => string) {
  return useChromium(() => ({
    args: [`--host-resolver-rules=MAP quire.test 127.0.0.1:${new URL(url()).port}`, '--disable-features=HttpsUpgrades'],
  }));
}

/**
 * The identity providers of a test file: a SAML IdP's keys, and an OpenID provider (oidc-provider on loopback) with
 * the `client` registered, started in `beforeAll`, closed in `afterAll`. The OIDC connection Quire makes gives its
 * redirect URL: push it to `redirectUris` before a sign-in.
 */
export function useTestIdps(client: { clientId: string; clientSecret: string }) {
  const idps = { keys: makeIdpKeys(), redirectUris: [] as string[], oidc: {} as TestOidcProvider };
  beforeAll(async () => {
    Object.assign(idps.oidc, await startTestOidcProvider({ ...client, redirectUris: idps.redirectUris }));
  });
  afterAll(async () => {
    await idps.oidc.close?.();
  });
  return idps;
}

/** A SAML connection of Quire's as its create call answers it: the ACS URL and the SP entity ID. */
export interface SamlService {
  id: string;
  service: { acsURL: string; entityID: string };
}

/**
 * Routes `page`'s requests to the identity provider (http://idp.example, so that Chromium does not warn before an https
 * page posts to http) to its page: a form posting to `saml`'s ACS a response for the AuthnRequest, asserting `email`,
 * signed by `keys` as IdP `idp`; its button is "Continue".
 */
export function routeSamlIdp(page: Page, a: { idp: string; email: string; saml: SamlService; keys: TestIdpKeys }) {
  return page.route('http://idp.example/**', async (route) => {
    const request = authnRequestOf(route.request().url());
    const SAMLResponse = signedSamlResponse({
      idp: a.idp,
      inResponseTo: request.requestId,
      email: a.email,
      acs: a.saml.service.acsURL,
      audience: a.saml.service.entityID,
      key: a.keys.key,
      cert: a.keys.cert,
    });
    await route.fulfill({
      contentType: 'text/html',
      body:
        `<!doctype html><html lang="en"><title>IdP</title><form method="post" action="${a.saml.service.acsURL}">` +
        `<input type="hidden" name="SAMLResponse" value="${SAMLResponse}"><input type="hidden" name="RelayState" value="${request.relayState}">` +
        '<button type="submit">Continue</button></form></html>',
    });
  });
}
