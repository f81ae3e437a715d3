// A connection closed with a call in flight (a long poll), whose stream then drops: the
// SDK's gRPC retry would start the call again on the closed channel from a timer, an
// uncaught "Channel has been shut down" (in a gateway stopping, or in the next test
// file of a worker). connectTemporal's connection lets the call fail instead.
import { expect, inject, it } from 'vitest';
import { connectTemporal } from '../../src/platform/temporal/connection.ts';
import { createLogger } from '../../src/platform/log.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { collectUncaughtErrors } from '../support/uncaught-errors.ts';

const uncaught = collectUncaughtErrors();

it('fails a call in flight whose stream drops after the close, without retrying it on the closed channel', async () => {
  const proxy = await startTcpProxy(inject('temporalAddress'));
  const connection = await connectTemporal({ address: proxy.address }, createLogger('warn'));
  const poll = connection
    .withDeadline(Date.now() + 60_000, () =>
      connection.workflowService.pollWorkflowTaskQueue({ namespace: 'default', taskQueue: { name: 'nobody-polls-this' }, identity: 'close-test' }),
    )
    .then(
      () => 'answered',
      (err: Error) => err.message,
    );
  await new Promise((r) => setTimeout(r, 300));
  await connection.close();
  await proxy.close();
  expect(await poll).toMatch(/UNAVAILABLE/);
  // The SDK's first retry would come 100 ms (with jitter) after the drop.
  await new Promise((r) => setTimeout(r, 1_000));
  expect(uncaught()).toEqual([]);
});
