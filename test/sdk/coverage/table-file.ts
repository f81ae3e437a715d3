// The coverage table's file and its text as it should be now.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { jsSdkSurface, type SdkSurface } from './js-surface.ts';
import { pythonSdkSurface, type PythonSurface } from './python-surface.ts';
import { renderCoverageTable } from './render-table.ts';

export const COVERAGE_TABLE_PATH = fileURLToPath(new URL('../../../docs/api/sdk-coverage.md', import.meta.url));

export function coverageTableText(js: SdkSurface = jsSdkSurface(), py: PythonSurface = pythonSdkSurface()): string {
  const jsVersion = (createRequire(import.meta.url)('@mendable/firecrawl-js/package.json') as { version: string }).version;
  return `${renderCoverageTable(js, py, jsVersion)}\n`;
}
