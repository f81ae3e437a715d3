// How every process of the service runs its TypeScript: Node's own type transform, not the tsx
// loader. tsx sends every module load through a hooks thread of its own: loading the worker's
// modules took 2.9 s of CPU with it and 1.6 s without (Node 24, compile cache warm), and a test
// run starts about a hundred processes. Plain JavaScript, so scripts/bootstrap.mjs can import it
// before anything is installed.

/** Node's arguments that run a .ts file: the transform (enums, parameter properties), without its warning. */
export const TYPESCRIPT_NODE_ARGS = ['--experimental-transform-types', '--disable-warning=ExperimentalWarning'];

/** The first Node that has the transform. */
export const TYPESCRIPT_MIN_NODE = [22, 7];
