// The layout's one-way rules (.dependency-cruiser.cjs) hold for the whole tree,
// and each rule really fires: a small tree that breaks every rule once is refused.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';

const ROOT = join(import.meta.dirname, '../../..');
const rules = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs'));

async function violations(cwd: string, roots: string[]): Promise<IViolation[]> {
  const here = process.cwd();
  process.chdir(cwd);
  try {
    const { output } = await cruise(roots, { ...rules.options, ruleSet: { forbidden: rules.forbidden }, validate: true });
    return (output as ICruiseResult).summary.violations;
  } finally {
    process.chdir(here);
  }
}

const describe = (v: IViolation[]) => v.map((x) => `${x.rule.name}: ${x.from} -> ${x.to}`).join('\n');

it('holds for src, workflows and activities', async () => {
  const found = await violations(ROOT, ['src', 'workflows', 'activities']);
  expect(found, describe(found)).toEqual([]);
}, 60_000);

const broken = mkdtempSync(join(tmpdir(), 'layout-'));
afterAll(() => rmSync(broken, { recursive: true, force: true }));

it('refuses each kind of wrong import', async () => {
  const files: Record<string, string> = {
    'src/platform/base.ts': "import { job } from '../jobs/job.ts';\nexport const base = job;\n",
    'src/page/load.ts': "import { feature } from '../features/one/a.ts';\nexport const load = feature;\n",
    'src/jobs/job.ts': "import { feature } from '../features/one/a.ts';\nexport const job = feature;\n",
    'src/features/one/a.ts': "import { b } from '../two/b.ts';\nexport const feature = b;\n",
    'src/features/two/b.ts': "import { c } from './c.ts';\nexport const b = c;\n",
    'src/features/two/c.ts': "import { b } from './b.ts';\nexport const c = () => b;\n",
    'src/features/two/settings.ts': "import type { Config } from '../../config.ts';\nexport type S = Config;\n",
    'src/config.ts': 'export type Config = { a: number };\n',
    'src/features/browser-sessions/gateway/g.ts': "import type { H } from '../host/h.ts';\nexport type G = H;\n",
    'src/features/browser-sessions/gateway/page.ts': 'export const page = 1;\n',
    'src/features/browser-sessions/host/h.ts': "import { page } from '../gateway/page.ts';\nexport type H = typeof page;\n",
    'src/features/browser-sessions/protocol/p.ts': "import { run } from '../sandbox/s.ts';\nexport const p = run;\n",
    'src/features/browser-sessions/sandbox/s.ts': 'export const run = 1;\n',
    'src/features/browser-sessions/sandbox/runtime/r.ts': "import { p } from '../../protocol/p.ts';\nexport const r = p;\n",
    'src/page/formats/shared.ts': 'export const shared = 1;\n',
    'src/page/formats/registry.ts': "import { one } from './one/one.ts';\nexport const formats = [one];\n",
    'src/page/formats/one/one.ts': "import { shared } from '../shared.ts';\nimport { two } from '../two/two.ts';\nexport const one = shared + two;\n",
    'src/page/formats/two/two.ts': "import type { formats } from '../registry.ts';\nexport const two = 2;\nexport type All = typeof formats;\n",
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(broken, path)), { recursive: true });
    writeFileSync(join(broken, path), text);
  }
  const all = await violations(broken, ['src']);
  const found = new Set(all.map((v) => v.rule.name));
  // A format's module may import what formats share, not another format nor the registry.
  expect(
    all
      .filter((v) => v.rule.name === 'formats-stay-apart')
      .map((v) => `${v.from} -> ${v.to}`)
      .sort(),
  ).toEqual(['src/page/formats/one/one.ts -> src/page/formats/two/two.ts', 'src/page/formats/two/two.ts -> src/page/formats/registry.ts']);
  expect([...found].sort()).toEqual([
    'browser-sessions-gateway-apart-from-host',
    'browser-sessions-host-apart-from-gateway',
    'browser-sessions-protocol-stands-alone',
    'features-stay-apart',
    'formats-stay-apart',
    'jobs-import-no-feature',
    'no-circular-layers',
    'only-entry-points-see-all-settings',
    'page-imports-no-job-or-feature',
    'platform-imports-no-layer-above',
    'sandbox-runtime-stands-alone',
  ]);
}, 60_000);
