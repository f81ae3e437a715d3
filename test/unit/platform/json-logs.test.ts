// The one log format: fields bound to a unit of work reach every line inside it, errors
// and bigints print, the Temporal SDK's lines come out as ours, and only a sane incoming
// request id is kept.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createLogger, withLogFields } from '../../../src/platform/log.ts';
import { requestIdFor } from '../../../src/platform/http/request-id.ts';
import { sdkLogger } from '../../../src/platform/temporal/sdk-logger.ts';

let write: MockInstance<typeof process.stdout.write>;
const lines = () => write.mock.calls.map(([chunk]) => JSON.parse(String(chunk)) as Record<string, unknown>);

beforeEach(() => {
  write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => write.mockRestore());

describe('log lines', () => {
  it('carry the fields bound around them, across awaits and nested bindings, and only there', async () => {
    const log = createLogger('info', { process: 'test' });
    await withLogFields({ requestId: 'r-1' }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      log.info('inside');
      withLogFields({ crawlId: 'c-1' }, () => log.child({ batch: 2 }).warn('nested', { extra: true }));
    });
    log.info('outside');
    expect(lines()).toMatchObject([
      { level: 'info', msg: 'inside', process: 'test', requestId: 'r-1' },
      { level: 'warn', msg: 'nested', process: 'test', requestId: 'r-1', crawlId: 'c-1', batch: 2, extra: true },
      { level: 'info', msg: 'outside', process: 'test' },
    ]);
    expect(lines()[2]).not.toHaveProperty('requestId');
  });

  it('print errors anywhere in their fields, and bigints', () => {
    createLogger('info').error('failed', { err: new TypeError('boom'), meta: { cause: new Error('deep') }, nanos: 12n });
    const [line] = lines();
    expect(line.err).toMatchObject({ name: 'TypeError', message: 'boom', stack: expect.stringContaining('boom') });
    expect(line.meta).toMatchObject({ cause: { name: 'Error', message: 'deep' } });
    expect(line.nanos).toBe('12');
  });

  it('of the Temporal SDK are ours, at our level, with its metadata', () => {
    const sdk = sdkLogger(createLogger('info', { process: 'worker' }));
    sdk.debug('Activity started', { sdkComponent: 'activity' });
    sdk.trace('poll');
    // The SDK's own INFO chatter is debug; workflow and activity code's info is info.
    sdk.info('Worker state changed', { sdkComponent: 'worker', state: 'RUNNING' });
    sdk.info('progress', { sdkComponent: 'workflow', workflowId: 'crawl-1' });
    sdk.log('WARN', 'core says', { sdkComponent: 'core', target: 'temporal_sdk_core' });
    // Activity-only queues are so by design: not a warning.
    sdk.warn('No workflows registered, not polling for workflow tasks', { sdkComponent: 'worker', taskQueue: 'crawl-browser' });
    sdk.error('Activity failed', { error: new Error('nope') });
    expect(lines()).toMatchObject([
      { level: 'info', msg: 'progress', process: 'worker', sdkComponent: 'workflow', workflowId: 'crawl-1' },
      { level: 'warn', msg: 'core says', sdkComponent: 'core', target: 'temporal_sdk_core' },
      { level: 'error', msg: 'Activity failed', error: { message: 'nope' } },
    ]);
  });
});

describe('request ids', () => {
  it('keep 1 to 128 characters of letters, digits and . _ : -', () => {
    for (const id of ['a', 'test-1f0c', 'Trace.ID_01:span-2', 'x'.repeat(128)]) expect(requestIdFor(id)).toBe(id);
  });

  it('replace anything else, or nothing, with a fresh uuid', () => {
    for (const id of [undefined, '', 'x'.repeat(129), 'with space', 'a/b', 'quote"d', 'line\nbreak', 'é']) {
      const made = requestIdFor(id);
      expect(made).not.toBe(id);
      expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined));
  });
});
