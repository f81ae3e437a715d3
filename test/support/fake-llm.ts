// A stand-in for an OpenAI-compatible chat-completions endpoint on 127.0.0.1:
// it records each request body and answers with the content the test set.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlm {
  /** The LLM_BASE_URL to configure (ends in /v1). */
  baseUrl: string;
  /** Request bodies, oldest first. */
  requests: unknown[];
  /** What the next answers say (the assistant message's content). */
  reply(content: string): void;
  close(): Promise<void>;
}

export async function startFakeLlm(initialReply = '{}'): Promise<FakeLlm> {
  let content = initialReply;
  const requests: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    reply: (next) => (content = next),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
