// The official Python SDK (`firecrawl` on PyPI, installed into .tools/python by
// npm test), unchanged, against our gateway: the Python twins of the JS SDK's
// monitor calls (create, list, get, update, delete, run, list checks, get check).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
const recorded: RecordedResponse[] = [];
let site: FixtureSite;
let loadsOfA = 0;

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  site = await startFixtureSite({
    '/py/a': () => ({ body: page('A', `<main><p>A, version ${++loadsOfA === 1 ? 1 : 2}.</p></main>`) }),
    '/py/b': page('B', '<main><p>B stays.</p></main>'),
    '/py/c': { status: 500, body: page('C', '<main><p>Broken.</p></main>') },
    '/py/d': page('D', '<main><p>D stays.</p></main>'),
  });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

it('the eight monitor calls work unchanged', async () => {
  const out = await runPythonSdk('test/sdk/python_monitor.py', { API_URL: h.baseUrl, API_KEY: h.apiKey, SITE_URL: site.url });
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const result = JSON.parse(out.stdout);
  expect(result.monitor).toMatchObject({ status: 'active', cron: '0 3 1 1 *', retention_days: 3 });
  expect(result).toMatchObject({ listed: true, got_name: 'Python watch', queued_trigger: 'manual', paused: 'paused', deleted: true });
  expect(result.first).toEqual({
    status: 'completed',
    summary: { total_pages: 3, same: 0, changed: 0, new: 3, removed: 0, error: 0 },
    pages: [
      ['/py/a', 'new'],
      ['/py/b', 'new'],
      ['/py/d', 'new'],
    ],
  });
  expect(result.second).toEqual({
    status: 'completed',
    summary: { total_pages: 4, same: 1, changed: 1, new: 0, removed: 1, error: 1 },
    pages: [
      ['/py/a', 'changed'],
      ['/py/b', 'removed'],
      ['/py/c', 'error'],
      ['/py/d', 'same'],
    ],
  });
  expect(result.diff_text).toContain('+A, version 2.');
  expect(result.checks).toEqual(result.check_ids);
  expect(await h.db.monitor.count({ where: { id: result.monitor.id } })).toBe(0);
});

it('every answer the SDK got is as the OpenAPI document says', async () => {
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
