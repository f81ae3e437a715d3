// Types of typescript-runtime.mjs, which stays plain JavaScript: scripts/bootstrap.mjs imports it before anything is installed.
export const TYPESCRIPT_NODE_ARGS: string[];
export const TYPESCRIPT_MIN_NODE: [number, number];
