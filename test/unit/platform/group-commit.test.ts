import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/platform/db/group-commit.ts';

/** A writer whose transactions the test lets finish one at a time. */
function recorder(failGroupsWith?: string) {
  const groups: string[][] = [];
  const singles: string[] = [];
  let finish: (() => void) | undefined;
  const running = () => new Promise<void>((resolve) => (finish = resolve));
  const commit = new GroupCommit<string>({
    writeGroup: async (items) => {
      groups.push(items);
      await running();
      if (failGroupsWith && items.includes(failGroupsWith)) throw new Error('group failed');
    },
    writeOne: async (item) => {
      singles.push(item);
      await running();
      if (item === failGroupsWith) throw new Error(`${item} cannot be stored`);
    },
    maxGroup: 3,
  });
  const release = async () => {
    while (!finish) await new Promise((r) => setImmediate(r));
    const f = finish;
    finish = undefined;
    f();
    await new Promise((r) => setImmediate(r));
  };
  return { commit, groups, singles, release };
}

describe('GroupCommit', () => {
  it('writes a lone item at once, and groups what arrives while a write runs, up to maxGroup', async () => {
    const { commit, groups, singles, release } = recorder();
    const first = commit.write('a');
    const rest = ['b', 'c', 'd', 'e'].map((i) => commit.write(i));
    expect(singles).toEqual(['a']);
    await release();
    await first;
    expect(groups).toEqual([['b', 'c', 'd']]);
    await release();
    await release();
    await Promise.all(rest);
    expect(singles).toEqual(['a', 'e']);
    expect(groups).toEqual([['b', 'c', 'd']]);
  });

  it('writes a failed group again one by one, so only the item that fails gets the error', async () => {
    const { commit, groups, singles, release } = recorder('c');
    const first = commit.write('a');
    const results = ['b', 'c', 'd'].map((i) =>
      commit.write(i).then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    await release();
    await first;
    expect(groups).toEqual([['b', 'c', 'd']]);
    for (let i = 0; i < 4; i++) await release();
    expect(await Promise.all(results)).toEqual(['ok', 'c cannot be stored', 'ok']);
    expect(singles).toEqual(['a', 'b', 'c', 'd']);
  });
});
