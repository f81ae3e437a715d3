// The official Python SDK (`firecrawl` on PyPI, installed into .tools/python
// by npm test), unchanged, against our gateway.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite(treeSite(7));
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

it('crawl() (start + wait) returns every page', async () => {
  const sdkPath = process.env.PYTHON_PACKAGES_PATH;
  if (!sdkPath) throw new Error('PYTHON_PACKAGES_PATH is not set: run the tests with `npm test`, which installs the Python SDK');
  const env = { ...process.env, PYTHONPATH: sdkPath, API_URL: h.baseUrl, API_KEY: h.apiKey, SITE_URL: `${site.url}/` };
  // Asynchronously: the worker serving the SDK's crawl runs in this process.
  const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('python3', ['test/sdk/python_crawl.py'], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const result = JSON.parse(out.stdout);
  expect(result).toMatchObject({ status: 'completed', completed: 7, total: 7, credits_used: 7, errors: 0 });
  expect(result.urls).toEqual([...Array(7).keys()].map((i) => `${site.url}${i === 0 ? '/' : `/p/${i}`}`).sort());
  expect(result.markdown.every((m: string) => m.includes('Content of page'))).toBe(true);
  expect(result.started_id).toMatch(/^[0-9a-f-]{36}$/);
});
