import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig, type OrgAdminConfig } from '../env.ts';
import { Membership } from '../modules/organizations/organization.entity.ts';
import { Session } from '../modules/sessions/session.entity.ts';
import { ABSOLUTE_MS, IDLE_MS, SESSION_COOKIE, sessionOf, TOUCH_MS } from '../modules/sessions/sessions.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import { membershipSetter } from './member-adder.ts';
import { sessionEnder, sessionStarter, sessionToucher, signInRecorder } from './session-starter.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'session-starter' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const config = () => t.svc.deps.config as OrgAdminConfig;
const t0 = new Date('2031-03-01T09:00:00Z');
/** The cookies a browser sends back from a Set-Cookie value. */
const cookiesOf = (setCookie: string) => Object.fromEntries([setCookie.split(';')[0]!.split('=') as [string, string]]);
const sessionAt = (setCookie: string, now: Date) => sessionOf(t.em().fork(), config(), cookiesOf(setCookie), now);

describe('sessionStarter', () => {
  it('starts a session the cookie finds for 7 days, storing only the hash of its secret', async () => {
    const { admin } = await seedOrganization(t, {});
    const setCookie = await inTx((tx) => sessionStarter(tx, { config: config(), userId: admin.id, now: t0 }));
    expect(setCookie).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[^;]+; Path=/; HttpOnly; SameSite=Lax; Max-Age=${ABSOLUTE_MS / 1000}`),
    );
    const session = await sessionAt(setCookie, t0);
    expect(session).toMatchObject({ userId: admin.id, createdAt: t0, lastSeenAt: t0, endedAt: null });
    expect(session!.expiresAt.getTime()).toBe(t0.getTime() + ABSOLUTE_MS);
    // The cookie's value is signed, and the secret it carries is not what is stored.
    const value = cookiesOf(setCookie)[SESSION_COOKIE]!;
    expect(await t.em().count(Session, { hash: value })).toBe(0);
    expect(session!.hash).toMatch(/^[0-9a-f]{64}$/);
    // Idle longer than IDLE_MS since its last request, the cookie finds nothing.
    expect(await sessionAt(setCookie, new Date(t0.getTime() + IDLE_MS + 1))).toBeNull();
    // Another session per sign-in.
    const second = await inTx((tx) => sessionStarter(tx, { config: config(), userId: admin.id, now: t0 }));
    expect(second).not.toBe(setCookie);
    expect(await t.em().count(Session, { userId: admin.id })).toBe(2);
  });
});

describe('signInRecorder', () => {
  it("records the sign-in as the user's last visit to each of their organizations", async () => {
    const a = await seedOrganization(t, {});
    const b = await seedOrganization(t, { ann: 'read' });
    // ann joins a second organization: the sign-in is her visit to both.
    await inTx((tx) =>
      membershipSetter(tx, { organizationId: a.organizationId, userId: b.users.ann.id, role: 'edit' }),
    );
    const setCookie = await inTx((tx) => signInRecorder(tx, { config: config(), userId: b.users.ann.id, now: t0 }));
    expect((await sessionAt(setCookie, t0))?.userId).toBe(b.users.ann.id);
    const memberships = await t
      .em()
      .find(Membership, { userId: b.users.ann.id }, { orderBy: { organizationId: 'asc' } });
    expect(memberships.map((m) => m.lastSeenAt)).toEqual([t0, t0]);
    // The admins of those organizations did not sign in.
    expect((await t.em().findOneOrFail(Membership, { userId: a.admin.id })).lastSeenAt).toBeNull();
  });
});

describe('sessionToucher and sessionEnder', () => {
  it('moves the last request of a session at most once a minute, and ends it for good', async () => {
    const { admin } = await seedOrganization(t, {});
    const setCookie = await inTx((tx) => sessionStarter(tx, { config: config(), userId: admin.id, now: t0 }));
    const touch = (now: Date) =>
      inTx(async (tx) =>
        sessionToucher(tx, { session: await sessionOf(tx, config(), cookiesOf(setCookie), now), now }),
      );
    const lastSeen = async () =>
      (await t.em().findOneOrFail(Session, { userId: admin.id }, { refresh: true })).lastSeenAt;
    await touch(new Date(t0.getTime() + TOUCH_MS));
    expect(await lastSeen()).toEqual(t0);
    const later = new Date(t0.getTime() + TOUCH_MS + 1);
    await touch(later);
    expect(await lastSeen()).toEqual(later);
    // Idle for longer than IDLE_MS counted from the last request, not from the start.
    expect(await sessionAt(setCookie, new Date(later.getTime() + IDLE_MS - 1))).not.toBeNull();
    // Without a session, nothing.
    await inTx(async (tx) => sessionToucher(tx, { session: null, now: later }));

    const cleared = await inTx(async (tx) =>
      sessionEnder(tx, { session: (await sessionOf(tx, config(), cookiesOf(setCookie), later))!, now: later }),
    );
    expect(cleared).toBe(`${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
    expect((await t.em().findOneOrFail(Session, { userId: admin.id }, { refresh: true })).endedAt).toEqual(later);
    // A copy of the cookie replayed finds nothing.
    expect(await sessionAt(setCookie, later)).toBeNull();
  });
});
