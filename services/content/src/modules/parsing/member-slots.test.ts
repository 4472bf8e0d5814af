import { describe, expect, it } from 'vitest';
import { MemberSlots } from './member-slots.ts';

describe('MemberSlots', () => {
  it('lets a member run up to the cap at once, refuses past it with a 429, and frees slots as work ends', async () => {
    const slots = new MemberSlots('website imports', 2);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const running = [slots.run('ann', () => gate), slots.run('ann', () => gate)];
    expect(slots.heldBy('ann')).toBe(2);
    await expect(slots.run('ann', async () => 'third')).rejects.toMatchObject({
      reason: 'rate_limited',
      message: 'Too many website imports at once: you have 2 running (at most 2); retry once one has finished',
    });
    // Another member is not held back.
    expect(await slots.run('rita', async () => 'hers')).toBe('hers');
    release();
    await Promise.all(running);
    expect(slots.heldBy('ann')).toBe(0);
    expect(await slots.run('ann', async () => 'again')).toBe('again');
  });

  it('frees the slot of work that failed, and 0 means no cap', async () => {
    const slots = new MemberSlots('PDF exports', 1);
    await expect(slots.run('ann', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(slots.heldBy('ann')).toBe(0);
    const open = new MemberSlots('PDF exports', 0);
    expect(await Promise.all([1, 2, 3].map((n) => open.run('ann', async () => n)))).toEqual([1, 2, 3]);
  });

  it('holds a slot taken for work that outlives a call until it is given back, once', () => {
    const slots = new MemberSlots('PDF exports', 1);
    const release = slots.take('ann');
    expect(() => slots.take('ann')).toThrow('Too many PDF exports at once: you have 1 running (at most 1)');
    release();
    release();
    expect(slots.heldBy('ann')).toBe(0);
    slots.take('ann');
    expect(slots.heldBy('ann')).toBe(1);
  });
});
