import { describe, expect, it } from 'vitest';
import { keyedLimit } from './keyed-limit.ts';

/** A run that ends when the test says so, recording when it started. */
function gate(started: string[], name: string) {
  let open = () => {};
  const ended = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    work: async () => {
      started.push(name);
      await ended;
      return name;
    },
    open,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('keyedLimit', () => {
  it('runs at most the limit per key, the rest in their order, other keys unaffected', async () => {
    const withinLimit = keyedLimit(2);
    const started: string[] = [];
    const runs = ['a1', 'a2', 'a3', 'a4'].map((name) => gate(started, name));
    const other = gate(started, 'b1');
    const results = runs.map((run) => withinLimit('a', run.work));
    const otherResult = withinLimit('b', other.work);
    await settle();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    runs[1]?.open();
    await settle();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    runs[0]?.open();
    runs[2]?.open();
    runs[3]?.open();
    other.open();
    expect(await Promise.all([...results, otherResult])).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
  });

  it('gives a failed run’s place to the next one and passes its error on', async () => {
    const withinLimit = keyedLimit(1);
    const failed = withinLimit('a', async () => {
      throw new Error('refused');
    });
    const next = withinLimit('a', async () => 'next');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('next');
    // And the key is free again: a new run starts at once.
    const started: string[] = [];
    const run = gate(started, 'later');
    const later = withinLimit('a', run.work);
    await settle();
    expect(started).toEqual(['later']);
    run.open();
    await later;
  });
});
