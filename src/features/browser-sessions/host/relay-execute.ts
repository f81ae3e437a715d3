// The relay's execute door: POST /execute/<sessionId> with the host's secret, a
// JSON body of the code, and the execute's answer (as the API's) back. Gateways
// call it for executes their session's workflow has admitted (admitExecute).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../../platform/log.ts';
import { executeCallSchema, type ExecuteCall } from '../protocol/execute-request.ts';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import { MAX_RELAY_EXECUTE_BODY_BYTES, type RelayExecuteRefusal } from '../protocol/relay.ts';
import { SessionNotOnHost, type HostExecute } from './execute-on-host.ts';

function answer(res: ServerResponse, status: number, body: ExecuteResponse | RelayExecuteRefusal): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

/** The request's body, or undefined (answered 413) once it passes the limit. */
async function readBody(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_RELAY_EXECUTE_BODY_BYTES) {
      answer(res, 413, { error: `execute body over ${MAX_RELAY_EXECUTE_BODY_BYTES} bytes`, code: 'TOO_LARGE' });
      req.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function serveRelayExecute(
  req: IncomingMessage,
  res: ServerResponse,
  sessionId: string,
  opts: { executeOnHost(input: HostExecute): Promise<ExecuteResponse>; log: Logger },
): Promise<void> {
  const text = await readBody(req, res);
  if (text === undefined) return;
  let body: ExecuteCall;
  try {
    body = executeCallSchema.parse(JSON.parse(text));
  } catch (err) {
    return answer(res, 400, { error: `not an execute: ${(err as Error).message}`, code: 'BAD_REQUEST' });
  }
  try {
    answer(res, 200, await opts.executeOnHost({ sessionId, ...body }));
  } catch (err) {
    if (err instanceof SessionNotOnHost) return answer(res, 410, { error: 'Browser session has been destroyed.', code: 'SESSION_DESTROYED' });
    opts.log.warn('execute failed on the host', { sessionId, error: (err as Error).message });
    answer(res, 502, { error: (err as Error).message, code: 'EXECUTE_FAILED' });
  }
}
