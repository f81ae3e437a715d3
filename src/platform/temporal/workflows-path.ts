import { fileURLToPath } from 'node:url';

/** The workflow bundle's entry; workers (and tests) bundle it at start-up. */
export const WORKFLOWS_PATH = fileURLToPath(new URL('../../../workflows/index.ts', import.meta.url));
