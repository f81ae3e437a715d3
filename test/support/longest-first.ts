// The order `npm test` starts its files in: longest first, so the two workers of
// the machine finish together instead of one running a long file alone at the end
// (longest-processing-time scheduling). Durations come from vitest's cache of the
// last run when there is one (node_modules/.vite), otherwise from
// test/support/file-durations.json, measured on a fresh clone on the 2-core machine.
// Files in neither (new ones) are taken for a medium integration file or a short
// unit file. Unit and integration files share the two workers (vitest.config.ts).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const measured: Record<string, number> = JSON.parse(readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'));
const UNKNOWN_MS: Record<string, number> = { integration: 15_000, unit: 1_000 };

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const estimate = (spec: TestSpecification) => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      return this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration || (measured[path] ?? UNKNOWN_MS[spec.project.name] ?? 0);
    };
    return [...files].sort((a, b) => estimate(b) - estimate(a));
  }
}
