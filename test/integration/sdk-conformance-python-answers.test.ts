// Drop-in by construction, the answers, Python side: every public method of the
// official Python SDK called once against the real gateway, worker and browser
// host (test/sdk/python_every_method.py). The SDK parses each answer into its own
// pydantic models, so an answer of the wrong shape raises; a method the coverage
// table refuses must raise its refusal. Fails when the SDK has a method no step calls.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { page, type FixtureSite } from '../support/fixture-site.ts';
import type { Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';
import { startSessionHarness } from '../support/session-harness.ts';
import { pythonSdkSurface } from '../sdk/coverage/python-surface.ts';
import { PYTHON_ASYNC_OF, PYTHON_METHODS } from '../sdk/coverage/methods.ts';

let h: Harness;
let site: FixtureSite;
let llm: FakeLlm;

beforeAll(async () => {
  llm = await startFakeLlm();
  llm.script = (req) =>
    req.messages[0]?.content.startsWith('You are a research agent') ? JSON.stringify({ thought: 'done', action: { finish: { title: 'Widgets' } } }) : undefined;
  ({ h, site } = await startSessionHarness(
    {
      '/': page('Shop', '<main><h1>Shop</h1><a href="/widgets">widgets</a> <a href="/about">about</a></main>'),
      '/widgets': page(
        'Widget catalogue',
        '<main><h1>Widget catalogue</h1><p>Blue widgets cost five euros.</p></main>',
        '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Blue widget","offers":{"@type":"Offer","price":"5.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>',
      ),
      '/about': page('About', '<main><h1>About us</h1><p>We make widgets.</p></main>'),
    },
    { llm: { baseUrl: llm.url, model: 'fake-big', smallModel: 'fake-small', local: true } },
  ));
}, 180_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
  await llm?.close();
});

it('every method of the Python SDK answers in the SDK’s own models, or raises the refusal the table names', async () => {
  const out = await runPythonSdk('test/sdk/python_every_method.py', { API_URL: h.baseUrl, API_KEY: h.apiKey, SITE_URL: site.url });
  expect(out.code, out.stderr.slice(-3000)).toBe(0);
  const result = out.stdout.split('\n').find((line) => line.startsWith('RESULT '));
  const { called, failures, refusals } = JSON.parse(result!.slice('RESULT '.length)) as {
    called: string[];
    failures: { method: string; error: string }[];
    refusals: Record<string, string>;
  };
  expect(failures).toEqual([]);
  // Refused exactly where the coverage table says cloud or retired.
  const rowOf = (name: string) => {
    const [client, method] = name.split('.');
    return PYTHON_METHODS[name] ?? PYTHON_METHODS[`${PYTHON_ASYNC_OF[client]}.${method}`];
  };
  const tableRefusals = Object.fromEntries(
    called.flatMap((name) => (['cloud', 'retired'].includes(rowOf(name)?.status ?? '') ? [[name, rowOf(name).status]] : [])),
  );
  expect(refusals).toEqual(tableRefusals);
  // Every method of the sync clients; the async clients send the same requests (each is called for a sample of its methods).
  const syncMethods = pythonSdkSurface()
    .methods.filter((m) => !PYTHON_ASYNC_OF[m.client])
    .map((m) => `${m.client}.${m.method}`);
  expect(syncMethods.filter((m) => !called.includes(m))).toEqual([]);
  expect(called.filter((m) => m.startsWith('Async')).length).toBeGreaterThan(10);
}, 600_000);
