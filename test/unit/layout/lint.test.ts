// ESLint (eslint.config.js) finds no problem anywhere in the tree. `npx eslint <file>`
// shows one file's problems; `npx eslint --fix <file>` mends the fixable ones.
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

it('the linter reports nothing', async () => {
  const results = await new ESLint({ cwd: ROOT }).lintFiles(['.']);
  expect(results.length).toBeGreaterThan(100);
  const problems = results.flatMap((r) => r.messages.map((m) => `${relative(ROOT, r.filePath)}:${m.line}:${m.column} ${m.ruleId ?? ''} ${m.message}`));
  expect(problems).toEqual([]);
}, 180_000);

it('the configuration applies to sources (an unused variable is reported)', async () => {
  const [result] = await new ESLint({ cwd: ROOT }).lintText('const unused = 1;\n', { filePath: join(ROOT, 'src/example.ts') });
  expect(result.messages.map((m) => m.ruleId)).toContain('@typescript-eslint/no-unused-vars');
});
