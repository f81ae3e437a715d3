// The gateway's side of the relay's execute door: POST the code of an admitted
// execute to its session's host and read the answer. Connections are kept alive
// (one pool per gateway process), so an execute costs no TCP handshake.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { EXECUTE_ANSWER_GRACE_MS } from '../protocol/execute-limits.ts';
import type { ExecuteCall } from '../protocol/execute-request.ts';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import { relayExecutePath, RELAY_SECRET_HEADER, type RelayExecuteRefusal } from '../protocol/relay.ts';
import type { HostRecord } from '../shared/host-registry.ts';

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/** destroyed: the session is not (or no longer) on its host; unreachable: the host did not answer; failed: it could not run the code. */
export class RelayExecuteError extends Error {
  constructor(
    readonly kind: 'destroyed' | 'unreachable' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** The relay's HTTP address: hosts record the WebSocket URL gateways open CDP connections to. */
export function relayHttpUrl(relayUrl: string, path: string): URL {
  const url = new URL(path, relayUrl);
  url.protocol = url.protocol === 'wss:' || url.protocol === 'https:' ? 'https:' : 'http:';
  return url;
}

function readAnswer(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
  });
}

function post(url: URL, secret: string, payload: string, deadlineMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const https = url.protocol === 'https:';
    const req: ClientRequest = (https ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      agent: https ? agents.https : agents.http,
      headers: { [RELAY_SECRET_HEADER]: secret, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    const timer = setTimeout(() => req.destroy(new RelayExecuteError('unreachable', `no answer within ${deadlineMs} ms`)), deadlineMs);
    req.once('response', (res) => {
      readAnswer(res).then(
        (text) => resolve({ status: res.statusCode ?? 0, text }),
        (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
      );
    });
    req.once('error', (err: NodeJS.ErrnoException) => {
      // A kept-alive connection the host closed as this request went out never reached it (Node's own advice: send again).
      if (req.reusedSocket && err.code === 'ECONNRESET') post(url, secret, payload, deadlineMs).then(resolve, reject);
      else reject(err);
    });
    req.once('close', () => clearTimeout(timer));
    req.end(payload);
  });
}

/** graceMs: how long past the code's timeout the host has to answer. */
export async function executeThroughRelay(host: HostRecord, sessionId: string, body: ExecuteCall, graceMs = EXECUTE_ANSWER_GRACE_MS): Promise<ExecuteResponse> {
  let answer: { status: number; text: string };
  try {
    answer = await post(relayHttpUrl(host.relayUrl, relayExecutePath(sessionId)), host.relaySecret, JSON.stringify(body), body.timeoutMs + graceMs);
  } catch (err) {
    throw new RelayExecuteError('unreachable', `browser host ${host.id} stopped responding (${(err as Error).message})`);
  }
  if (answer.status === 200) return JSON.parse(answer.text) as ExecuteResponse;
  let refusal: Partial<RelayExecuteRefusal> = {};
  try {
    refusal = JSON.parse(answer.text) as RelayExecuteRefusal;
  } catch {
    // An answer without a body (401, 404): its status says enough.
  }
  if (refusal.code === 'SESSION_DESTROYED') throw new RelayExecuteError('destroyed', refusal.error ?? 'Browser session has been destroyed.');
  throw new RelayExecuteError('failed', refusal.error ?? `browser host ${host.id} answered ${answer.status}`);
}
