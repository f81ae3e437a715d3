import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { ephemeralStart, freePort } from '../../../src/platform/process/ports.ts';

it('chooses a port below the ephemeral range, which outgoing connections never take, and one that can be listened on', async () => {
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(10_000);
    expect(port).toBeLessThan(ephemeralStart());
  }
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(ports[0], '127.0.0.1', resolve));
  srv.close();
});

it('never answers a port it is told to avoid, also when every port below the ephemeral range is to be avoided', async () => {
  const low = Array.from({ length: ephemeralStart() - 10_000 }, (_, i) => 10_000 + i);
  const port = await freePort(low);
  expect(port).toBeGreaterThanOrEqual(ephemeralStart());
  const again = await Promise.all(Array.from({ length: 20 }, () => freePort([...low, port])));
  expect(again).not.toContain(port);
});
