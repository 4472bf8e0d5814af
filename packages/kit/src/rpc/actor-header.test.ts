import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from '../crypto/tokens.ts';
import { ActorSigner } from './actor-header.ts';

const SECRET = 'x'.repeat(40);
const actor = {
  kind: 'user' as const,
  userId: 'u1',
  memberships: [{ organization: 'o1', role: 'edit' as const, teams: [] }],
};

describe('ActorSigner', () => {
  const signer = new ActorSigner(SECRET);

  it('round-trips a signed actor, in a token of purpose `actor` valid five minutes', async () => {
    const now = Date.now();
    const { header, exp } = await signer.sign(actor, now);
    expect(await signer.verify(header)).toEqual(actor);
    expect(await new ActorSigner(SECRET).verify(header)).toEqual(actor);
    expect(decodeJwt(header)).toMatchObject({ actor, aud: 'quire:actor', exp: exp / 1000 });
    expect(exp).toBe(Math.floor((now + 5 * 60_000) / 1000) * 1000);
  });

  it('re-uses the header of an actor until it has less than a minute left', async () => {
    const signer = new ActorSigner(SECRET);
    const now = Date.now();
    const first = await signer.sign(actor, now);
    expect(await signer.sign({ ...actor }, now + 3 * 60_000)).toEqual(first);
    expect(await signer.sign({ ...actor, userId: 'u2' }, now)).not.toEqual(first);
    const renewed = await signer.sign(actor, first.exp - 59_000);
    expect(renewed.exp).toBeGreaterThan(first.exp);
    expect(await signer.verify(renewed.header, first.exp - 59_000)).toEqual(actor);
  });

  it('rejects missing, tampered, foreign and expired headers', async () => {
    const now = Date.now();
    const { header } = await signer.sign(actor, now);
    expect(await signer.verify(undefined)).toBeNull();
    expect(await signer.verify('garbage')).toBeNull();
    const [protectedHeader, , mac] = header.split('.');
    const forged = Buffer.from(
      JSON.stringify({ actor: { kind: 'instance-admin' }, aud: 'quire:actor', exp: now / 1000 + 60 }),
    ).toString('base64url');
    expect(await signer.verify(`${protectedHeader}.${forged}.${mac}`)).toBeNull();
    expect(await new ActorSigner('y'.repeat(40)).verify(header)).toBeNull();
    const old = await new ActorSigner(SECRET).sign(actor, now - 10 * 60_000);
    expect(await signer.verify(old.header)).toBeNull();
  });

  it('refuses a header once it expired, even one it verified before', async () => {
    const now = Date.now();
    const { header, exp } = await new ActorSigner(SECRET).sign(actor, now);
    expect(await signer.verify(header, now)).toEqual(actor);
    expect(await signer.verify(header, exp - 1)).toEqual(actor);
    expect(await signer.verify(header, exp)).toBeNull();
  });

  it('refuses a token of another purpose carrying an actor, and claims that are not an actor', async () => {
    const exp = Date.now() + 60_000;
    const asDownload = await new TokenSigner(SECRET, 'download').sign({ actor }, exp);
    expect(await signer.verify(asDownload)).toBeNull();
    const notAnActor = await new TokenSigner(SECRET, 'actor').sign({ actor: { kind: 'nobody' } }, exp);
    expect(await signer.verify(notAnActor)).toBeNull();
  });

  it('refuses a short secret', () => {
    expect(() => new ActorSigner('short')).toThrow(/at least 32/);
  });
});
