import { describe, expect, it } from 'vitest';
import { PacedSlots } from './request-slots';

describe('placements paced to the database', () => {
  it('lets in as many as one database answers within the target, learnt from how long each took with how many ahead', () => {
    let clock = 0;
    const now = () => clock;
    const slots = new PacedSlots({ total: 120, targetMs: 1000 });
    // Before anything finished: a careful start.
    expect(slots.limit).toBe(64);
    const held = Array.from({ length: 64 }, () => slots.take(now));
    expect(held.every(Boolean)).toBe(true);
    expect(slots.take(now), 'the 65th is told to try again').toBeNull();
    // Answered one after another, 20 ms of the database each: however they interleave, each one's share is 20 ms.
    for (const release of held) {
      clock += 20;
      release!();
    }
    expect(slots.limit).toBe(50);
    // Interleaved: 20 in progress together, all answered after 400 ms, the same 20 ms each.
    const interleaved = new PacedSlots({ total: 120, targetMs: 1000 });
    const twenty = Array.from({ length: 20 }, () => interleaved.take(now));
    clock += 400;
    for (const [index, release] of twenty.entries()) {
      release!();
      // Too few answers yet to tell the pace: the first waited for all of them.
      if (index < 15) expect(interleaved.limit).toBe(64);
    }
    expect(interleaved.limit).toBe(50);
    // A database server answering many at once: 32 in progress, answered together in 30 ms.
    const server = new PacedSlots({ total: 120, targetMs: 1000 });
    const together = Array.from({ length: 32 }, () => server.take(now));
    clock += 30;
    for (const release of together) release!();
    expect(server.limit, 'never above the ceiling').toBe(120);
    // Slow answers one at a time (a second each) never leave it taking one at a time: a few together show whether more help.
    const slow = new PacedSlots({ total: 120, targetMs: 1000 });
    for (let i = 0; i < 20; i += 1) {
      const release = slow.take(now)!;
      clock += 1000;
      release();
    }
    expect(slow.limit).toBe(4);
    // A small ceiling always holds, and releasing twice frees one slot.
    const small = new PacedSlots({ total: 2, targetMs: 1000 });
    const first = small.take(now)!;
    expect(small.take(now)).not.toBeNull();
    expect(small.take(now)).toBeNull();
    first();
    first();
    expect(small.full).toBe(false);
    expect(small.take(now)).not.toBeNull();
    expect(small.take(now)).toBeNull();
  });
});
