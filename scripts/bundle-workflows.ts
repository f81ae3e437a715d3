// `node --experimental-transform-types scripts/bundle-workflows.ts <file>`: writes the workflow
// bundle that workers load when TEMPORAL_WORKFLOW_BUNDLE names it (the Dockerfile
// runs this at build time, so containers start without running webpack).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DefaultLogger } from '@temporalio/worker';
import { bundleWorkflows } from '../src/platform/temporal/workflow-code.ts';

const target = process.argv[2];
if (!target) {
  console.error('usage: node --experimental-transform-types scripts/bundle-workflows.ts <output file>');
  process.exit(2);
}
const file = resolve(target);
const code = await bundleWorkflows(new DefaultLogger('WARN'));
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, code);
console.log(`workflow bundle: ${file} (${Math.round(code.length / 1024)} KiB)`);
