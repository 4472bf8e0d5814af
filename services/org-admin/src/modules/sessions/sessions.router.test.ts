import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { failureOf, useTestService } from '@quire/kit/testing';
import { sessionStarter } from '../../commands/session-starter.ts';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';
import { SESSION_COOKIE } from './sessions.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'user-sessions' });
const gateway = { kind: 'service', service: 'gateway' } as const;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let signIns = 0;
/** A session of the user signed in from a browser (each a second after the last): the cookie its browser sends back. */
async function signedIn(userId: string, userAgent: string, address: string): Promise<string> {
  const em = t.em();
  const now = new Date(Date.now() - 600_000 + ++signIns * 1000);
  const browser = { userAgent, address };
  const setCookie = await sessionStarter(em, { config: t.svc.deps.config, userId, now, browser });
  await em.flush();
  return setCookie.split(';')[0]!.slice(SESSION_COOKIE.length + 1);
}

/** The actor of the app's calls with a session cookie (as the gateway resolves it). */
async function actorOf(cookie: string): Promise<Actor | null> {
  return (await t.call(ops.resolveSession, { cookie }, gateway)).actor;
}

const list = (as: Actor) => t.call(ops.listUserSessions, {}, as);
const revoke = (sessionId: string, as: Actor) => t.call(ops.revokeUserSession, { sessionId }, as);
const reason = async (call: Promise<unknown>) => (await failureOf(call)).reason;

describe('the user’s own sessions', () => {
  it('lists the live sessions of the caller, newest first, naming the browser and marking the current one', async () => {
    const { admin, users } = await seedOrganization(t, { bob: 'read' });
    const laptop = await signedIn(users.bob.id, FIREFOX, '10.0.0.1');
    const phone = await signedIn(users.bob.id, SAFARI, '10.0.0.2');
    await signedIn(admin.id, FIREFOX, '10.0.0.3');
    const inLaptop = (await actorOf(laptop))!;
    expect(inLaptop).toMatchObject({ kind: 'user', userId: users.bob.id, sessionId: expect.any(String) });

    const seen = await list(inLaptop);
    expect(seen.items.map((s) => [s.browser, s.ipAddress, s.current])).toEqual([
      ['Safari on iOS', '10.0.0.2', false],
      ['Firefox on Linux', '10.0.0.1', true],
    ]);
    expect(seen.items[1]).toEqual({
      object: 'user-session',
      id: (inLaptop as { sessionId: string }).sessionId,
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
      expiresAt: expect.any(String),
      browser: 'Firefox on Linux',
      userAgent: FIREFOX,
      ipAddress: '10.0.0.1',
      current: true,
    });
    // Never the cookie nor its hash.
    expect(JSON.stringify(seen)).not.toContain(laptop.split('.')[1]!);
    expect(JSON.stringify(seen)).not.toMatch(/[a-f0-9]{64}/);
    // A script with one of bob's API tokens lists them too (none is its own); the admin sees only theirs.
    expect((await list(users.bob.actor)).items.map((s) => s.current)).toEqual([false, false]);
    expect((await list(admin.actor)).items.map((s) => s.ipAddress)).toEqual(['10.0.0.3']);
    expect(await actorOf(phone)).not.toBeNull();
  });

  it('signs out one session: its cookie stops working; another user’s session is not found', async () => {
    const { admin, users } = await seedOrganization(t, { bob: 'read' });
    const laptop = await signedIn(users.bob.id, FIREFOX, '10.0.0.1');
    const phone = await signedIn(users.bob.id, SAFARI, '10.0.0.2');
    const phoneId = (await list(users.bob.actor)).items.find((s) => s.browser === 'Safari on iOS')!.id;

    expect(await reason(revoke(phoneId, admin.actor))).toBe('not_found');
    expect(await reason(revoke('no-such-session', users.bob.actor))).toBe('not_found');
    expect(await actorOf(phone)).not.toBeNull();

    await revoke(phoneId, (await actorOf(laptop))!);
    expect(await actorOf(phone)).toBeNull();
    expect(await actorOf(laptop)).not.toBeNull();
    expect((await list(users.bob.actor)).items.map((s) => s.browser)).toEqual(['Firefox on Linux']);
    // Ended: not found again, as an unknown one.
    expect(await reason(revoke(phoneId, users.bob.actor))).toBe('not_found');
  });
});
