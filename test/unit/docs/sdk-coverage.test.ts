// The coverage table (docs/api/sdk-coverage.md) is complete and current: every
// method and request field the SDKs' own types declare has a row, no row is left
// for something the SDKs dropped, and the file is what the rows render to.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsGaps, pythonGaps } from '../../sdk/coverage/coverage.ts';
import { FIELDS, ok } from '../../sdk/coverage/dispositions.ts';
import { jsSdkSurface } from '../../sdk/coverage/js-surface.ts';
import { pythonSdkSurface } from '../../sdk/coverage/python-surface.ts';
import { COVERAGE_TABLE_PATH, coverageTableText } from '../../sdk/coverage/table-file.ts';

// Reading the SDKs takes a TypeScript program and a Python process: seconds on a busy machine.
describe('the SDK coverage table', { timeout: 60_000 }, () => {
  const js = jsSdkSurface();
  const py = pythonSdkSurface();

  it('has a row for every method, field and value of the JS SDK’s types, and none for what it does not have', () => {
    expect(js.methods.length).toBeGreaterThan(90);
    expect(js.fields.length).toBeGreaterThan(400);
    expect(jsGaps(js)).toEqual({ missing: [], stale: [] });
  });

  it('has a row for every method, keyword argument, model field and value of the Python SDK', () => {
    expect(py.version).toBe('4.54.0');
    expect(py.methods.length).toBeGreaterThan(200);
    expect(pythonGaps(py)).toEqual({ missing: [], stale: [] });
  });

  it('names what it misses: a field the SDK declares without a row, a value without one, a row the SDK lacks', () => {
    const { ScrapeOptions, ...others } = FIELDS;
    const { redactPII: _, ...scrapeWithoutRedact } = ScrapeOptions;
    const withoutRedact = { ...others, ScrapeOptions: { ...scrapeWithoutRedact, fromAnOlderSdk: ok() } };
    expect(jsGaps(js, withoutRedact).missing).toEqual(['js field ScrapeOptions.redactPII']);
    expect(jsGaps(js, withoutRedact).stale).toEqual(['js field ScrapeOptions.fromAnOlderSdk']);
    const noAudio = { ...FIELDS, ScrapeOptions: { ...ScrapeOptions, formats: ok('', { markdown: ok() }) } };
    expect(jsGaps(js, noAudio).missing).toContain('js field ScrapeOptions.formats = "audio"');
  });

  it('is the text docs/api/sdk-coverage.md holds (regenerate with `npm run sdk-coverage`)', () => {
    expect(readFileSync(COVERAGE_TABLE_PATH, 'utf8')).toBe(coverageTableText(js, py));
  });
});
