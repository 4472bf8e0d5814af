import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { newId, sha256Hex } from '@quire/kit';
import { TEST_SECRET, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { sessionEnder, sessionStarter, sessionToucher } from '../../commands/session-starter.ts';
import { User } from '../users/user.entity.ts';
import { Session } from './session.entity.ts';
import {
  cookie,
  IDLE_MS,
  ABSOLUTE_MS,
  SESSION_COOKIE,
  sessionOf,
  signedCookie,
  signedCookieValue,
} from './sessions.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'sessions' });
const config = { QUIRE_INTERNAL_SECRET: 'x'.repeat(32), QUIRE_PUBLIC_URL: 'http://quire.test' };

/** A user and a session started at `start` (cookies signed with `signing`): the cookie the browser would send back. */
async function started(start: Date, signing = config) {
  const em = t.em();
  const user = em.create(User, {
    id: newId(),
    email: `${newId()}@acme.io`,
    displayName: 'S',
    photoURL: null,
    createdAt: start,
  });
  const setCookie = await sessionStarter(em, { config: signing, userId: user.id, now: start });
  await em.flush();
  return { [SESSION_COOKIE]: setCookie.split(';')[0]!.slice(SESSION_COOKIE.length + 1) };
}

describe('sessions', () => {
  it('signs cookies: a changed value or signature, another purpose, another secret or an expired one is refused', async () => {
    const now = Date.UTC(2026, 0, 1);
    const value = await signedCookie(config, 'session', 'abc', now + 60_000);
    expect(await signedCookieValue(config, 'session', value, now)).toBe('abc');
    const [header, claims, mac] = value.split('.') as [string, string, string];
    const changed = Buffer.from(Buffer.from(claims, 'base64url').toString().replace('"abc"', '"abd"')).toString(
      'base64url',
    );
    expect(await signedCookieValue(config, 'session', `${header}.${changed}.${mac}`, now)).toBeNull();
    expect(await signedCookieValue(config, 'session', `${value}x`, now)).toBeNull();
    expect(await signedCookieValue(config, 'sso-state', value, now)).toBeNull();
    const other = { ...config, QUIRE_INTERNAL_SECRET: 'y'.repeat(32) };
    expect(await signedCookieValue(other, 'session', value, now)).toBeNull();
    expect(await signedCookieValue(config, 'session', value, now + 60_000)).toBeNull();
    expect(await signedCookieValue(config, 'session', 'abc', now)).toBeNull();
    expect(await signedCookieValue(config, 'session', undefined, now)).toBeNull();
  });

  it('sets HttpOnly, SameSite=Lax cookies, Secure behind https', () => {
    expect(cookie(config, 'a', 'b', 60)).toBe('a=b; Path=/; HttpOnly; SameSite=Lax; Max-Age=60');
    expect(cookie({ ...config, QUIRE_PUBLIC_URL: 'https://docs.acme.io' }, 'a', 'b', 60)).toMatch(/; Secure$/);
  });

  it('ends a session after idle time, after its absolute lifetime, and at sign-out', async () => {
    const start = new Date('2026-01-01T00:00:00Z');
    const cookies = await started(start);
    const at = (ms: number) => new Date(start.getTime() + ms);
    expect(await sessionOf(t.em(), config, cookies, at(IDLE_MS - 1000))).not.toBeNull();
    expect(await sessionOf(t.em(), config, cookies, at(IDLE_MS + 1000))).toBeNull();

    // Used every few hours, it still ends at its absolute lifetime.
    const active = await started(start);
    for (let h = 6; h * 3_600_000 < ABSOLUTE_MS; h += 6) {
      const em = t.em();
      const session = await sessionOf(em, config, active, at(h * 3_600_000));
      expect(session).not.toBeNull();
      sessionToucher(em, { session, now: at(h * 3_600_000) });
      await em.flush();
    }
    expect(await sessionOf(t.em(), config, active, at(ABSOLUTE_MS + 1000))).toBeNull();

    const ended = await started(start);
    const em = t.em();
    sessionEnder(em, { session: (await sessionOf(em, config, ended, at(1000)))!, now: at(2000) });
    await em.flush();
    expect(await sessionOf(t.em(), config, ended, at(3000))).toBeNull();
    const guessed = await signedCookie(config, 'session', 'guessed', at(ABSOLUTE_MS).getTime());
    expect(await sessionOf(t.em(), config, { [SESSION_COOKIE]: guessed }, at(1000))).toBeNull();
  });

  it("renews a session's idle time when the app's calls resolve it (the gateway's resolveSession)", async () => {
    const start = new Date(Date.now() - 2 * 3_600_000);
    // Signed with the service's own secret: the cookie the service's sign-in pages would have set.
    const serviceConfig = { ...config, QUIRE_INTERNAL_SECRET: TEST_SECRET };
    const cookies = await started(start, serviceConfig);
    const gateway = { kind: 'service', service: 'gateway' } as const;
    const resolved = await t.call(ops.resolveSession, { cookie: cookies[SESSION_COOKIE]! }, gateway);
    expect(resolved.actor).toMatchObject({ kind: 'user' });
    const secret = await signedCookieValue(serviceConfig, 'session', cookies[SESSION_COOKIE], Date.now());
    const row = await t.em().findOneOrFail(Session, { hash: sha256Hex(secret!) });
    expect(Date.now() - row.lastSeenAt.getTime()).toBeLessThan(60_000);
    expect(await t.call(ops.resolveSession, { cookie: 'forged' }, gateway)).toEqual({ actor: null, csrf: null });
  });
});
