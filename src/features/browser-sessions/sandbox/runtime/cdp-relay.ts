// Runs inside a sandbox, whose only network is its private loopback: a listener
// there whose every connection is piped to the session's CDP bridge socket, so
// that Playwright and agent-browser, which speak CDP over TCP, reach the
// session's browser and nothing else.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { BRIDGE_SOCKET } from './sandbox-paths.ts';

/** platform/net/splice.ts's splice: the sandbox mounts this folder alone, so it cannot import it. */
function pipeBoth(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const close = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', close).on('close', close);
  b.on('error', close).on('close', close);
}

/** Listens on 127.0.0.1 (an ephemeral port) and answers the browser-level CDP URL that reaches the session. */
export async function startCdpRelay(browserPath: string): Promise<string> {
  const server = createServer((client) => pipeBoth(client, connect(BRIDGE_SOCKET)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}${browserPath}`;
}
