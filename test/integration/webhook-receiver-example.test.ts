// The receiver example of docs/api/webhooks.md (docs/examples/webhook-receiver.mjs), run as
// users run it, against deliveries made by the service's own sender.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../src/platform/process/ports.ts';
import { sendWebhook } from '../../src/jobs/webhooks/send-webhook.ts';

const SECRET = 'whsec_example_test';
let child: ChildProcess;
let url: string;
const lines: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  child = spawn(process.execPath, ['docs/examples/webhook-receiver.mjs'], { env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port) } });
  const ready = new Promise<void>((resolve) =>
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('listening')) resolve();
    }),
  );
  await ready;
});

afterAll(() => {
  child?.kill();
});

const policy = { allowPrivate: true, allowlist: [] };

it('accepts a signed delivery once, acknowledges its retry as a duplicate, and rejects a bad signature', async () => {
  const webhookId = randomUUID();
  const body = JSON.stringify({
    success: true,
    type: 'crawl.page',
    id: randomUUID(),
    webhookId,
    data: [{ metadata: { sourceURL: 'https://example.com/' } }],
    metadata: {},
  });
  const send = (secret: string) => sendWebhook({ url, body, headers: {}, secret, timeoutMs: 5000, policy });

  expect((await send(SECRET)).outcome).toBe('delivered');
  expect((await send(SECRET)).outcome).toBe('delivered');
  const forged = await send('not-the-secret');
  expect(forged).toMatchObject({ outcome: 'final', statusCode: 401 });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(lines.filter((l) => l.includes(webhookId))).toEqual([
    expect.stringMatching(new RegExp(`^event crawl.page ${webhookId} crawl .* https://example.com/$`)),
    `duplicate ${webhookId}`,
  ]);
  expect(lines).toContain('rejected: bad signature');
});
