// The relay's execute door and the gateway's client of it, over real HTTP on
// loopback with a stand-in for the sandbox: who may call it, what it refuses,
// and how each refusal reaches the gateway.
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionNotOnHost, type HostExecute } from '../../../src/features/browser-sessions/host/execute-on-host.ts';
import { startRelayServer, type RelayServer } from '../../../src/features/browser-sessions/host/relay-server.ts';
import { MAX_RELAY_EXECUTE_BODY_BYTES, relayExecutePath, RELAY_SECRET_HEADER } from '../../../src/features/browser-sessions/protocol/relay.ts';
import { executeThroughRelay, relayHttpUrl, RelayExecuteError } from '../../../src/features/browser-sessions/gateway/relay-execute-client.ts';
import type { ExecuteResponse } from '../../../src/features/browser-sessions/protocol/execute-response.ts';
import { createLogger } from '../../../src/platform/log.ts';

const SECRET = 'relay-secret';
const ANSWER: ExecuteResponse = { success: true, stdout: '1\n', result: '1', stderr: '', exitCode: 0, killed: false, error: null };
let relay: RelayServer | undefined;

afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

async function start(executeOnHost: (input: HostExecute) => Promise<ExecuteResponse>) {
  relay = await startRelayServer({
    bind: '127.0.0.1',
    port: 0,
    secret: SECRET,
    sessions: new Map(),
    maxMessageBytes: 1 << 20,
    executeOnHost,
    log: createLogger('error'),
  });
  return { id: 'h1', taskQueue: 'q', relayUrl: `ws://127.0.0.1:${relay.port}`, relaySecret: SECRET };
}

const post = (port: number, path: string, body: string, secret = SECRET) =>
  fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { [RELAY_SECRET_HEADER]: secret, 'content-type': 'application/json' }, body });

describe('the relay execute door', () => {
  it('runs the code of the named session and answers what the sandbox answered', async () => {
    const seen: HostExecute[] = [];
    const host = await start(async (input) => (seen.push(input), ANSWER));
    expect(await executeThroughRelay(host, 's-1', { language: 'python', code: '1', timeoutMs: 5000 })).toEqual(ANSWER);
    // Twice over one kept-alive connection.
    expect(await executeThroughRelay(host, 's-1', { language: 'node', code: '2', timeoutMs: 5000 })).toEqual(ANSWER);
    expect(seen).toEqual([
      { sessionId: 's-1', language: 'python', code: '1', timeoutMs: 5000 },
      { sessionId: 's-1', language: 'node', code: '2', timeoutMs: 5000 },
    ]);
  });

  it('refuses a caller without the secret, other paths and methods, and bodies that are no execute', async () => {
    let runs = 0;
    await start(async () => (runs++, ANSWER));
    const port = relay!.port;
    const body = JSON.stringify({ language: 'node', code: '1', timeoutMs: 1000 });
    expect((await post(port, relayExecutePath('s'), body, 'wrong')).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}${relayExecutePath('s')}`, { headers: { [RELAY_SECRET_HEADER]: SECRET } })).status).toBe(404);
    expect((await post(port, '/other/s', body)).status).toBe(404);
    for (const bad of [
      '{',
      '{}',
      JSON.stringify({ language: 'ruby', code: '1', timeoutMs: 1000 }),
      JSON.stringify({ language: 'node', code: '', timeoutMs: 1000 }),
    ]) {
      const res = await post(port, relayExecutePath('s'), bad);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).code).toBe('BAD_REQUEST');
    }
    const huge = await post(
      port,
      relayExecutePath('s'),
      JSON.stringify({ language: 'node', code: 'x'.repeat(MAX_RELAY_EXECUTE_BODY_BYTES), timeoutMs: 1000 }),
    ).catch((err: Error) => err);
    // Answered 413, or cut off while the body was still being sent.
    if (!(huge instanceof Error)) expect(huge.status).toBe(413);
    expect(runs).toBe(0);
  });

  it('tells the gateway a session that is not on the host, a sandbox that refused, and a host that is gone', async () => {
    const host = await start(async (input) => {
      if (input.sessionId === 'gone') throw new SessionNotOnHost(input.sessionId);
      throw new Error('no runtime for python');
    });
    const body = { language: 'python' as const, code: '1', timeoutMs: 1000 };
    await expect(executeThroughRelay(host, 'gone', body)).rejects.toMatchObject({ kind: 'destroyed' });
    await expect(executeThroughRelay(host, 'other', body)).rejects.toMatchObject({ kind: 'failed', message: 'no runtime for python' });
    await relay!.close();
    relay = undefined;
    const lost = await executeThroughRelay(host, 'other', body).catch((err: unknown) => err);
    expect(lost).toBeInstanceOf(RelayExecuteError);
    expect(lost).toMatchObject({ kind: 'unreachable', message: expect.stringContaining('browser host h1 stopped responding') });
  });

  it('gives up on a host that takes the code and never answers, at the code timeout plus the grace', async () => {
    // A TCP server that reads and never answers stands in for a hung host.
    const hung = createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const port = (hung.address() as { port: number }).port;
    try {
      const host = { id: 'h2', taskQueue: 'q', relayUrl: `ws://127.0.0.1:${port}`, relaySecret: SECRET };
      const started = Date.now();
      const err = await executeThroughRelay(host, 's', { language: 'node', code: '1', timeoutMs: 1 }, 300).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'unreachable' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      hung.close();
    }
  });

  it('sends a request again once when the kept-alive connection it went out on is reset', async () => {
    // A host that resets the first connection at its second request, as a keep-alive socket closed
    // by the host just as the request goes out looks to the gateway.
    const sockets: unknown[] = [];
    let requests = 0;
    const flaky = createHttpServer((req, res) => {
      requests++;
      if (!sockets.includes(req.socket)) sockets.push(req.socket);
      if (requests === 2) return void req.socket.resetAndDestroy();
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER)));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const host = { id: 'h3', taskQueue: 'q', relayUrl: `ws://127.0.0.1:${(flaky.address() as { port: number }).port}`, relaySecret: SECRET };
      const body = { language: 'node' as const, code: '1', timeoutMs: 1000 };
      expect(await executeThroughRelay(host, 's', body)).toEqual(ANSWER);
      expect(await executeThroughRelay(host, 's', body)).toEqual(ANSWER);
      expect(requests).toBe(3);
      expect(sockets.length).toBe(2);
    } finally {
      flaky.closeAllConnections();
      await new Promise((resolve) => flaky.close(resolve));
    }
  });

  it('reaches the relay over http or https as its recorded WebSocket URL says', () => {
    expect(relayHttpUrl('ws://10.0.0.5:3010', '/execute/a').href).toBe('http://10.0.0.5:3010/execute/a');
    expect(relayHttpUrl('wss://host.internal', '/execute/a').href).toBe('https://host.internal/execute/a');
  });
});
