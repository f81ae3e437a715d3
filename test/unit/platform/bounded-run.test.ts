// A tool run as a bounded child process (platform/process/bounded-run.ts): its
// output, and each bound it can meet, with plain shell commands standing in.
import { describe, expect, it } from 'vitest';
import { boundedRun, BoundedRunError } from '../../../src/platform/process/bounded-run.ts';

const limits = { timeoutMs: 5_000, memoryMb: 256, maxOutputBytes: 1_000_000 };

describe('boundedRun', () => {
  it('hands the input to the tool and returns its output, with only the environment it is given', async () => {
    expect((await boundedRun('cat', [], { ...limits, input: Buffer.from('page text') })).toString()).toBe('page text');
    process.env.BOUNDED_RUN_SECRET = 'not for tools';
    try {
      const env = (await boundedRun('env', [], { ...limits, env: { OMP_THREAD_LIMIT: '1' } })).toString();
      expect(env).toContain('OMP_THREAD_LIMIT=1');
      expect(env).not.toContain('BOUNDED_RUN_SECRET');
    } finally {
      delete process.env.BOUNDED_RUN_SECRET;
    }
  });

  it('sets the memory and CPU limits in the tool itself', async () => {
    const out = await boundedRun('sh', ['-c', 'ulimit -v; ulimit -t'], { ...limits, timeoutMs: 2_500 });
    expect(out.toString().split('\n').slice(0, 2)).toEqual([String(256 * 1024), '4']);
  });

  it.each([
    ['a missing tool', 'no-such-tool-here', [], limits, 'missing', 'no-such-tool-here was not found'],
    [
      'a tool that runs too long',
      'sleep',
      ['5'],
      { ...limits, timeoutMs: 200, timeoutSetting: 'OCR_PAGE_TIMEOUT_MS' },
      'timeout',
      'sleep took longer than 200 ms (OCR_PAGE_TIMEOUT_MS)',
    ],
    ['a tool that writes too much', 'yes', [], { ...limits, maxOutputBytes: 1000 }, 'output', 'yes wrote more than 1000 bytes'],
    ['a tool that fails', 'sh', ['-c', 'echo "bad image" >&2; exit 3'], limits, 'exit', 'sh exited with status 3: bad image'],
    // As the dynamic loader exits when a library does not fit in the memory limit: a failure, not a missing tool.
    [
      'status 127 from the tool itself',
      'sh',
      ['-c', 'echo "error while loading shared libraries" >&2; exit 127'],
      limits,
      'exit',
      'sh exited with status 127: error while loading shared libraries',
    ],
  ] as const)('reports %s', async (_what, command, args, opts, failure, message) => {
    const error = await boundedRun(command, [...args], opts).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BoundedRunError);
    expect(error).toMatchObject({ failure, message });
  });

  it('stops the tool when the work is cancelled', async () => {
    const abort = new AbortController();
    const running = boundedRun('sleep', ['5'], { ...limits, signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    await expect(running).rejects.toMatchObject({ failure: 'aborted' });
  });
});
