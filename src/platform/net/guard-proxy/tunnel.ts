// CONNECT through the guard proxy: the target is checked, then a tunnel is opened
// to the checked address (directly, or by asking the upstream proxy to CONNECT to
// that IP) and spliced to the client.
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { LookupAddress } from 'node:dns';
import { splice } from '../splice.ts';
import { authority, endpointKey, networkFailure, parseConnectTarget, unbracket, type Target } from './endpoints.ts';
import { pinnedLookup, resolveTarget, track, type ProxyState, type Refusal } from './targets.ts';

function refuseTunnel(socket: Duplex, { status, message }: Refusal): void {
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

type OnOpen = (socket: net.Socket, head: Buffer) => void;
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

function connectThroughUpstream(state: ProxyState, addresses: LookupAddress[], target: Target, onOpen: OnOpen, onFail: OnFail): void {
  const upstream = state.upstream!;
  const path = authority(addresses[0], target.port);
  const req = http.request({
    host: upstream.host,
    port: upstream.port,
    method: 'CONNECT',
    path,
    agent: false,
    headers: { host: path, ...(upstream.authorization ? { 'proxy-authorization': upstream.authorization } : {}) },
  });
  req.on('socket', (socket) => track(state, socket));
  req.once('error', (err) => onFail(`The upstream proxy failed to connect to ${path}: ${networkFailure(err)}`));
  req.once('connect', (res, socket, head) => {
    if (res.statusCode === 200) {
      onOpen(socket as net.Socket, head);
    } else {
      socket.destroy();
      onFail(`The upstream proxy answered ${res.statusCode} to CONNECT ${path}`);
    }
  });
  req.end();
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
  const open = state.upstream ? connectThroughUpstream : connectDirectly;
  open(
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
