import { describe, expect, it } from 'vitest';
import { StoreQueue } from '../../../src/page/store-queue.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('StoreQueue', () => {
  it('runs at most `limit` writes at once and waits for all of them on drain', async () => {
    const queue = new StoreQueue(2, () => undefined);
    const writes = [deferred(), deferred(), deferred()];
    let running = 0;
    let most = 0;
    const store = (w: ReturnType<typeof deferred>) => async () => {
      most = Math.max(most, ++running);
      await w.promise;
      running--;
    };
    await queue.add(store(writes[0]!));
    await queue.add(store(writes[1]!));
    let thirdStarted = false;
    const third = queue.add(store(writes[2]!)).then(() => (thirdStarted = true));
    await tick();
    expect(thirdStarted).toBe(false);
    writes[0]!.resolve();
    await third;
    let drained = false;
    const draining = queue.drain().then(() => (drained = true));
    await tick();
    expect(drained).toBe(false);
    writes[1]!.resolve();
    writes[2]!.resolve();
    await draining;
    expect(most).toBe(2);
  });

  it('reports the first failure once, refuses later pages and rethrows it on drain', async () => {
    const failures: unknown[] = [];
    const queue = new StoreQueue(4, (err) => failures.push(err));
    const first = deferred();
    const second = deferred();
    await queue.add(() => first.promise);
    await queue.add(() => second.promise);
    first.reject(new Error('database unavailable'));
    second.reject(new Error('connection reset'));
    await tick();
    expect(failures).toEqual([new Error('database unavailable')]);
    await expect(queue.add(async () => undefined)).rejects.toThrow('an earlier page could not be stored');
    await expect(queue.drain()).rejects.toThrow('database unavailable');
  });
});
