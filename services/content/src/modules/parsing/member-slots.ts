import { DomainError } from '@quire/kit';

/**
 * A cap on how many of one costly kind of work (website imports, PDF exports) a member runs at once, in this
 * process: past it, a 429 saying so (nothing waits in line). `max` 0 turns the cap off.
 */
export class MemberSlots {
  readonly #held = new Map<string, number>();
  readonly #what: string;
  readonly #max: number;

  constructor(what: string, max: number) {
    this.#what = what;
    this.#max = max;
  }

  /** Runs `work` in one of the member's slots, or refuses with a 429 when every slot of the member is taken. */
  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const release = this.take(userId);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /**
   * Takes one of the member's slots (a 429 when every one is taken) for work that outlives a call; the slot is
   * held until the returned function is called (once; later calls do nothing).
   */
  take(userId: string): () => void {
    const held = this.#held.get(userId) ?? 0;
    if (this.#max > 0 && held >= this.#max) {
      throw new DomainError(
        'rate_limited',
        `Too many ${this.#what} at once: you have ${held} running (at most ${this.#max}); retry once one has finished`,
      );
    }
    this.#held.set(userId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#held.get(userId) ?? 1) - 1;
      if (left > 0) this.#held.set(userId, left);
      else this.#held.delete(userId);
    };
  }

  /** Slots taken by a member now. */
  heldBy(userId: string): number {
    return this.#held.get(userId) ?? 0;
  }
}

const caps = new Map<string, MemberSlots>();

/** The process's cap of one kind of work, created on first use (one per kind and maximum). */
export function memberSlots(what: string, max: number): MemberSlots {
  const key = `${what}/${max}`;
  let slots = caps.get(key);
  if (!slots) caps.set(key, (slots = new MemberSlots(what, max)));
  return slots;
}
