import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error oidc-provider ships no types (test only: @types/oidc-provider is not installed)
import Provider from 'oidc-provider';
import { expect } from 'vitest';
import { ops, type Role } from '@quire/contracts';
import type { Caller, TestService } from '@quire/kit/testing';
import { Membership } from '../organizations/organization.entity.ts';
import { SESSION_COOKIE } from '../sessions/sessions.ts';
import { User } from '../users/user.entity.ts';

/** Test only: a real OpenID provider (`oidc-provider`) on loopback, signing in whoever the test names. */
export interface TestOidcProvider {
  issuer: string;
  /** Who the next authorization signs in as (the interaction is answered at once, no form). */
  signInAs(account: { sub: string; email: string; emailVerified: boolean; name?: string }): void;
  close(): Promise<void>;
}

export async function startTestOidcProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}): Promise<TestOidcProvider> {
  const accounts = new Map<string, { sub: string; email: string; emailVerified: boolean; name?: string }>();
  let next: string | undefined;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new Map<string, { payload: Record<string, unknown>; expiresAt: number }>();
  /** In-memory storage; the client is read from `client` each time, so redirect URIs added later count. */
  class MemoryAdapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: Record<string, unknown>, expiresIn: number) {
      store.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
    }
    async find(id: string) {
      if (this.model === 'Client')
        return id === client.clientId
          ? {
              client_id: client.clientId,
              client_secret: client.clientSecret,
              redirect_uris: [...client.redirectUris],
              grant_types: ['authorization_code'],
              response_types: ['code'],
            }
          : undefined;
      const hit = store.get(this.key(id));
      return hit && hit.expiresAt > Date.now() ? hit.payload : undefined;
    }
    async findByUid(uid: string) {
      for (const [k, v] of store) if (k.startsWith(`${this.model}:`) && v.payload.uid === uid) return v.payload;
      return undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const hit = store.get(this.key(id));
      if (hit) hit.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, v] of store) if (v.payload.grantId === grantId) store.delete(k);
    }
  }
  const provider = new Provider(issuer, {
    adapter: MemoryAdapter as never,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const a = accounts.get(sub);
      return a
        ? {
            accountId: sub,
            claims: () => ({
              sub,
              email: a.email,
              email_verified: a.emailVerified,
              ...(a.name ? { name: a.name } : {}),
            }),
          }
        : undefined;
    },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: next! } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = new provider.Grant({
        accountId: details.session!.accountId,
        clientId: details.params.client_id as string,
      });
      grant.addOIDCScope(String(details.params.scope));
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    signInAs(account) {
      accounts.set(account.sub, account);
      next = account.sub;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Test only: a browser's cookie jar for one host. */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  take(setCookies: string[]): void {
    for (const c of setCookies) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0/i.test(c) || /expires=thu, 01 jan 1970/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  record(): Record<string, string> {
    return Object.fromEntries(this.cookies);
  }
}

/**
 * Test only: one request of a browser (its cookies in `jar`, calling from `address`) to Quire's sign-in pages, as
 * the gateway sends it to org-admin (`t`); the cookies the answer sets go into the jar.
 */
export async function signInRequest(
  t: Caller,
  address: string,
  jar: CookieJar,
  method: 'GET' | 'POST',
  url: string,
  form: Record<string, string> = {},
) {
  const u = new URL(url, 'http://quire.test');
  const res = await t.call(
    ops.handleSignInRequest,
    { method, path: u.pathname, query: Object.fromEntries(u.searchParams), form, cookies: jar.record(), address },
    { kind: 'service', service: 'gateway' },
  );
  jar.take(res.cookies);
  return res;
}

/**
 * Test only: checks that a sign-in through an identity provider ended with the browser (`jar`) signed in and sent on
 * to `location`, as the user of `email` named `name`, a member of the organization with `role` and SSO on.
 * Answers that user.
 */
export async function expectSsoSignedIn(
  t: TestService,
  jar: CookieJar,
  done: Awaited<ReturnType<typeof signInRequest>>,
  want: { location: string; email: string; name: string; organizationId: string; role: Role },
) {
  expect(done.status).toBe(303);
  expect(done.headers.location).toBe(want.location);
  expect(jar.cookies.has(SESSION_COOKIE)).toBe(true);
  const user = await t.em().findOneOrFail(User, { email: want.email });
  expect(user.displayName).toBe(want.name);
  expect(
    await t.em().findOneOrFail(Membership, { organizationId: want.organizationId, userId: user.id }),
  ).toMatchObject({ role: want.role, sso: true });
  return user;
}
