// Every source file is as Prettier writes it (.prettierrc.json), so a diff shows
// what changed and nothing else. `npx prettier --write <file>` mends one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, resolveConfig } from 'prettier';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SOURCES = ['src', 'test', 'bench', 'workflows', 'activities', 'scripts', '*.ts', '*.js'];

it('every TypeScript and JavaScript source is formatted', async () => {
  const files = execFileSync('git', ['ls-files', '--', ...SOURCES], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|mjs|js)$/.test(f) && !f.startsWith('test/fixtures/'));
  expect(files.length).toBeGreaterThan(100);
  const unformatted: string[] = [];
  for (const file of files) {
    const path = join(ROOT, file);
    const options = await resolveConfig(path);
    if (!(await check(readFileSync(path, 'utf8'), { ...options, filepath: path }))) unformatted.push(file);
  }
  expect(unformatted, `not as Prettier writes them (npx prettier --write ${unformatted.join(' ')})`).toEqual([]);
}, 180_000);
