// CONNECT through the guard proxy: the target is checked, then a tunnel is opened
// to the checked address (directly, or by asking the upstream proxy to CONNECT to
// that IP) and spliced to the client.
import http from 'node:http';
import net from 'node:net';
import { ProxyFailureError, tunnelThrough } from '../proxy-pools/upstream-tunnel.ts';
import type { Duplex } from 'node:stream';
import type { LookupAddress } from 'node:dns';
import { splice } from '../splice.ts';
import { endpointKey, networkFailure, parseConnectTarget, unbracket, type Target } from './endpoints.ts';
import { MAX_UPSTREAM_ATTEMPTS, pinnedLookup, resolveTarget, track, type ProxyState, type Refusal } from './targets.ts';

function refuseTunnel(socket: Duplex, { status, message }: Refusal): void {
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

type OnOpen = (socket: Duplex, head: Buffer) => void;
type OnFail = (message: string) => void;

function connectDirectly(state: ProxyState, addresses: LookupAddress[], target: Target, onOpen: OnOpen, onFail: OnFail): void {
  const socket = net.connect({ host: unbracket(target.hostname), port: target.port, lookup: pinnedLookup(state, addresses, target.port) });
  track(state, socket);
  const fail = (err: Error) => onFail(`Cannot connect to ${target.hostname}:${target.port}: ${networkFailure(err)}`);
  socket.once('error', fail);
  socket.once('connect', () => {
    socket.off('error', fail);
    onOpen(socket, Buffer.alloc(0));
  });
}

/**
 * Through the upstream proxy chosen for the host (directly when the route chooses none); a proxy
 * that fails is reported (benched) and the next one tried.
 */
async function connectRouted(state: ProxyState, addresses: LookupAddress[], target: Target, onOpen: OnOpen, onFail: OnFail): Promise<void> {
  const tried = new Set<string>();
  let lastFailure = 'no upstream proxy is available';
  while (tried.size < MAX_UPSTREAM_ATTEMPTS) {
    const choice = state.route?.(target.hostname, tried);
    if (!choice && tried.size === 0) return connectDirectly(state, addresses, target, onOpen, onFail);
    if (!choice) break;
    tried.add(choice.id);
    try {
      const { socket, head } = await tunnelThrough(choice.upstream, addresses[0], target.port);
      track(state, socket);
      return onOpen(socket, head);
    } catch (err) {
      if (!(err instanceof ProxyFailureError)) return onFail((err as Error).message);
      choice.failed(err.message);
      lastFailure = err.message;
    }
  }
  onFail(`Cannot connect to ${target.hostname}:${target.port}: ${lastFailure}`);
}

export async function handleConnect(state: ProxyState, req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
  client.on('error', () => client.destroy());
  const target = parseConnectTarget(req.url ?? '');
  if (!target) return refuseTunnel(client, { status: 400, message: `Not a host:port CONNECT target: ${req.url}` });
  const key = endpointKey(target.hostname, target.port);
  const addresses = await resolveTarget(state, target.hostname, target.port);
  if (!Array.isArray(addresses)) {
    // Only an unreachable target is a failure; a refusal is remembered as such.
    if (addresses.status === 502) state.failures.set(key, addresses.message);
    return refuseTunnel(client, addresses);
  }
  if (client.destroyed) return;
  void connectRouted(
    state,
    addresses,
    target,
    (socket, upstreamHead) => {
      state.failures.delete(key);
      if (client.destroyed) return socket.destroy();
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (upstreamHead.length) client.write(upstreamHead);
      if (head.length) socket.write(head);
      splice(client, socket);
    },
    (message) => {
      state.failures.set(key, message);
      refuseTunnel(client, { status: 502, message });
    },
  );
}
