import { describe, expect, it } from 'vitest';
import { FairQueue, QueueFullError } from './fair-queue.ts';

/** A job that runs until the test lets it finish. */
function job(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    run: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    finish,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  it("never runs two of one member's jobs at once, so another member's job goes past them", async () => {
    const queue = new FairQueue({ concurrency: 2, perMember: 3, total: 10, retryAfterSeconds: 15 });
    const log: string[] = [];
    const a1 = job(log, 'a1');
    const a2 = job(log, 'a2');
    const a3 = job(log, 'a3');
    const b1 = job(log, 'b1');
    const results = [
      queue.enter('a').run(a1.run),
      queue.enter('a').run(a2.run),
      queue.enter('a').run(a3.run),
    ];
    await tick();
    expect(log).toEqual(['start a1']);
    const b = queue.enter('b').run(b1.run);
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    b1.finish();
    expect(await b).toBe('b1');
    expect(log).not.toContain('start a2');
    a1.finish();
    await tick();
    expect(log.at(-1)).toBe('start a2');
    a2.finish();
    a3.finish();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3']);
    expect(queue.pending).toBe(0);
  });

  it('refuses a member holding all their places, and anyone when the node is full; a cancelled place is given back', async () => {
    const queue = new FairQueue({ concurrency: 1, perMember: 2, total: 3, retryAfterSeconds: 15 });
    const held = [queue.enter('a'), queue.enter('a')];
    expect(() => queue.enter('a')).toThrow(QueueFullError);
    try {
      queue.enter('a');
    } catch (error) {
      expect(error).toMatchObject({ scope: 'member', retryAfterSeconds: 15 });
    }
    const b = queue.enter('b');
    expect(() => queue.enter('c')).toThrow(expect.objectContaining({ scope: 'node' }));
    b.cancel();
    b.cancel(); // twice gives back once
    expect(queue.pending).toBe(2);
    const c = queue.enter('c');
    expect(await c.run(async () => 'c')).toBe('c');
    held.forEach((place) => place.cancel());
    expect(queue.pending).toBe(0);
  });

  it('gives the place back when the job fails', async () => {
    const queue = new FairQueue({ concurrency: 1, perMember: 1, total: 1, retryAfterSeconds: 15 });
    await expect(
      queue.enter('a').run(async () => Promise.reject(new Error('bad bytes'))),
    ).rejects.toThrow('bad bytes');
    expect(await queue.enter('a').run(async () => 'next')).toBe('next');
  });
});
