// The gateway imports every feature for its routes; the libraries only a worker runs (Chromium's
// driver, the crawler, the PDF reader) load inside the activity factories, by import(). Loaded at
// the top of a feature they cost every gateway start a second of CPU (issue 40). Read from what
// Node itself resolves while importing the features, so an import by any path counts.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { TYPESCRIPT_NODE_ARGS } from '../../../src/platform/process/typescript-runtime.mjs';

const ROOT = join(import.meta.dirname, '../../..');
const WORKER_ONLY = ['playwright', 'playwright-core', 'crawlee', '@crawlee/core', '@crawlee/playwright', 'pdfjs-dist', 'fingerprint-generator', 'proxy-chain'];

const HOOK = `
import { registerHooks } from 'node:module';
const packages = new Set();
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url)?.[1];
  if (name) packages.add(name);
  return resolved;
} });
process.on('exit', () => process.stdout.write(JSON.stringify([...packages])));
`;

it('a gateway loads no package only a worker runs', { timeout: 60_000 }, () => {
  const hook = `data:text/javascript,${encodeURIComponent(HOOK)}`;
  const script = `await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/features/index.ts')).href)});`;
  const out = execFileSync(process.execPath, [...TYPESCRIPT_NODE_ARGS, '--import', hook, '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  const loaded: string[] = JSON.parse(out);
  expect(loaded).toContain('express');
  expect(loaded.filter((name) => WORKER_ONLY.includes(name))).toEqual([]);
});
