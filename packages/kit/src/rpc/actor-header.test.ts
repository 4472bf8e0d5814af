import { describe, expect, it } from 'vitest';
import { ActorSigner } from './actor-header.ts';

const actor = {
  kind: 'user' as const,
  userId: 'u1',
  memberships: [{ organization: 'o1', role: 'edit' as const, teams: [] }],
};

describe('ActorSigner', () => {
  const signer = new ActorSigner('x'.repeat(40));

  it('round-trips a signed actor', () => {
    expect(signer.verify(signer.sign(actor).header)).toEqual(actor);
  });

  it('rejects missing, tampered, foreign and expired headers', () => {
    const { header } = signer.sign(actor);
    expect(signer.verify(undefined)).toBeNull();
    expect(signer.verify('garbage')).toBeNull();
    const [claims, mac] = header.split('.');
    const forged = Buffer.from(JSON.stringify({ a: { kind: 'instance-admin' }, exp: Date.now() + 60_000 })).toString(
      'base64url',
    );
    expect(signer.verify(`${forged}.${mac}`)).toBeNull();
    expect(new ActorSigner('y'.repeat(40)).verify(header)).toBeNull();
    const old = signer.sign(actor, Date.now() - 10 * 60_000).header;
    expect(signer.verify(old)).toBeNull();
    expect(claims).toBeTruthy();
  });

  it('refuses a short secret', () => {
    expect(() => new ActorSigner('short')).toThrow(/at least 32/);
  });
});
