// The chaos-test TCP proxy: forwards, holds each direction on its own without
// closing anything, delivers held bytes in order on release, and drops them when
// a side goes away.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.ts';
import { waitFor } from '../../support/wait-for.ts';

/** The proxy's effects land within a few event-loop turns: poll often, for at most 5 s. */
const soon = (what: string, ok: () => boolean) => waitFor(what, ok, 5_000, 10);

/** A server that records what it receives and echoes it. */
async function echoServer() {
  const received: string[] = [];
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    // The proxy's reset reaches this side too.
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      received.push(chunk.toString());
      socket.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port: (server.address() as { port: number }).port, received: () => received.join(''), close };
}

let proxy: TcpProxy | undefined;
let server: Awaited<ReturnType<typeof echoServer>> | undefined;

afterEach(async () => {
  await proxy?.close();
  await server?.close();
});

async function client(address: string) {
  const [host, port] = address.split(':');
  const socket = connect(Number(port), host);
  const got: string[] = [];
  socket.on('data', (chunk) => got.push(chunk.toString()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, got: () => got.join('') };
}

const settle = () => new Promise((r) => setTimeout(r, 100));

it('forwards, holds both directions, and delivers in order on release', async () => {
  server = await echoServer();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: server.port });
  const c = await client(proxy.address);
  c.socket.write('a');
  await soon('the first answer', () => c.got() === 'a');

  proxy.hold();
  c.socket.write('b');
  c.socket.write('c');
  await soon('bytes held', () => proxy!.heldBytes().toServer === 2);
  await settle();
  expect(server.received()).toBe('a');
  expect(c.socket.destroyed).toBe(false);

  proxy.release();
  await soon('the held bytes delivered', () => c.got() === 'abc');
  expect(server.received()).toBe('abc');
  expect(proxy.heldBytes()).toEqual({ toServer: 0, toClient: 0 });
  c.socket.destroy();
});

it('holds only the answers when asked, and drops them when the client goes away', async () => {
  server = await echoServer();
  proxy = await startTcpProxy(`127.0.0.1:${server.port}`);
  const c = await client(proxy.address);
  proxy.hold({ toServer: false, toClient: true });
  c.socket.write('x');
  await soon('the request delivered', () => server!.received() === 'x');
  await soon('the answer held', () => proxy!.heldBytes().toClient === 1);
  await settle();
  expect(c.got()).toBe('');

  c.socket.destroy();
  await soon('the connection dropped', () => proxy!.heldBytes().toClient === 0);
  proxy.release();
  expect(server.received()).toBe('x');
});

it('resets open connections, refuses new ones while asked, and forwards again after', async () => {
  server = await echoServer();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: server.port });
  const c = await client(proxy.address);
  const closed = new Promise<string | undefined>((resolve) => c.socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code)));
  proxy.reset();
  expect(await closed).toBe('ECONNRESET');
  expect(proxy.openConnections()).toBe(0);

  proxy.refuse(true);
  const refused = connect(Number(proxy.address.split(':')[1]), '127.0.0.1');
  expect(await new Promise((resolve) => refused.once('error', (err: NodeJS.ErrnoException) => resolve(err.code)))).toBe('ECONNRESET');

  proxy.refuse(false);
  const again = await client(proxy.address);
  again.socket.write('z');
  await soon('the answer after the refusal', () => again.got() === 'z');
  again.socket.destroy();
});

it('delays each chunk and keeps their order', async () => {
  server = await echoServer();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: server.port });
  const c = await client(proxy.address);
  proxy.delay(150);
  const sent = Date.now();
  c.socket.write('1');
  await new Promise((r) => setTimeout(r, 20));
  c.socket.write('2');
  await soon('both answers', () => c.got() === '12');
  // Each chunk passes the proxy twice, 150 ms each way.
  expect(Date.now() - sent).toBeGreaterThanOrEqual(290);
  proxy.delay(0);
  c.socket.write('3');
  await soon('the answer without delay', () => c.got() === '123');
  c.socket.destroy();
});
