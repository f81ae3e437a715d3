// The official Python SDK (`firecrawl` on PyPI, installed into .tools/python
// by npm test), unchanged, against our gateway.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
// Every JSON answer the gateway gives the SDK, checked against the OpenAPI document at the end.
const recorded: RecordedResponse[] = [];
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  site = await startFixtureSite(treeSite(7));
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

it('crawl() (start + wait) returns every page', async () => {
  const out = await runPythonSdk('test/sdk/python_crawl.py', { API_URL: h.baseUrl, API_KEY: h.apiKey, SITE_URL: `${site.url}/` });
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const result = JSON.parse(out.stdout);
  expect(result).toMatchObject({ status: 'completed', completed: 7, total: 7, credits_used: 7, errors: 0 });
  expect(result.urls).toEqual([...Array(7).keys()].map((i) => `${site.url}${i === 0 ? '/' : `/p/${i}`}`).sort());
  expect(result.markdown.every((m: string) => m.includes('Content of page'))).toBe(true);
  expect(result.started_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(result.with_options).toEqual({ status: 'completed', completed: 7, markdown: 7 });
});

it('every answer the SDK got is as the OpenAPI document (/v2/openapi.json) says', async () => {
  // How many depends on polling; only that the recorder saw answers is certain.
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
