import { describe, expect, it } from 'vitest';
import { memoryCounters } from './rate-limit.ts';

describe('memory counters', () => {
  it('count within a window and start again after it', async () => {
    let now = 0;
    const counters = memoryCounters(() => new Date(now));
    await counters.add('ip:1', 1000);
    expect(await counters.add('ip:1', 1000)).toEqual({ count: 2, resetInMs: 1000 });
    now = 1000;
    expect(await counters.read('ip:1')).toEqual({ count: 0, resetInMs: 0 });
    expect(await counters.add('ip:1', 1000)).toEqual({ count: 1, resetInMs: 1000 });
  });

  it('keep at most so many windows, letting the oldest go first', async () => {
    let now = 0;
    const counters = memoryCounters(() => new Date(now), { sweepAbove: 2, most: 3 });
    for (const key of ['a', 'b', 'c']) {
      await counters.add(key, 60_000);
      now += 1;
    }
    await counters.add('a', 60_000); // a second hit does not make a window new
    await counters.add('d', 60_000);
    expect((await counters.read('a')).count).toBe(0);
    expect((await counters.read('b')).count).toBe(1);
    expect((await counters.read('d')).count).toBe(1);
  });

  it('count a key whose window ended as the newest', async () => {
    let now = 0;
    const counters = memoryCounters(() => new Date(now), { sweepAbove: 100, most: 3 });
    await counters.add('a', 10);
    await counters.add('b', 60_000);
    await counters.add('c', 60_000);
    now = 20;
    await counters.add('a', 60_000); // a new window: 'b' is now the oldest
    await counters.add('d', 60_000);
    expect((await counters.read('b')).count).toBe(0);
    expect((await counters.read('a')).count).toBe(1);
    expect((await counters.read('c')).count).toBe(1);
  });
});
