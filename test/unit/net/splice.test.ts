import { connect, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { splice } from '../../../src/platform/net/splice.ts';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A connected pair of sockets: the client end and the end the server accepted. */
async function socketPair(): Promise<[Socket, Socket]> {
  const server = createServer();
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const client = connect((server.address() as { port: number }).port, '127.0.0.1');
  await once(client, 'connect');
  return [client, (await accepted)[0]];
}

/** The next `bytes` bytes the socket receives, leaving it open. */
function received(socket: Socket, bytes: number): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += String(chunk);
      if (text.length < bytes) return;
      socket.off('data', onData);
      resolve(text);
    };
    socket.on('data', onData);
  });
}

it('carries bytes both ways between the two connections', async () => {
  const [outerA, innerA] = await socketPair();
  const [innerB, outerB] = await socketPair();
  splice(innerA, innerB);
  outerA.write('ping');
  expect(await received(outerB, 4)).toBe('ping');
  outerB.write('pong');
  expect(await received(outerA, 4)).toBe('pong');
  outerA.destroy();
  outerB.destroy();
});

it('tears the other side down when one side closes or fails', async () => {
  const [outerA, innerA] = await socketPair();
  const [innerB, outerB] = await socketPair();
  splice(innerA, innerB);
  const closed = once(outerB, 'close');
  outerA.destroy();
  await closed;
  expect(innerB.destroyed).toBe(true);

  const [outerC, innerC] = await socketPair();
  const [innerD, outerD] = await socketPair();
  splice(innerC, innerD);
  const torn = once(outerD, 'close');
  innerC.destroy(new Error('reset'));
  await torn;
  expect(innerD.destroyed).toBe(true);
  outerC.destroy();
});
