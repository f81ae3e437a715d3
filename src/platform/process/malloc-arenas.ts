// glibc gives each thread that allocates its own malloc arena (up to 8 per core), and an
// arena keeps what its thread freed for that thread's next allocations. A worker's native
// threads (Temporal's core, libuv's pool, V8's helpers) each build up an arena to their own
// high-water mark, so the process's RSS settles where chance put the peaks: in bench:crawl,
// one crawl of 10,000 pages ended at 845-913 MB with glibc's default, at 806-831 MB with two
// arenas, at the same pages/s. glibc reads the setting once, when a process starts: it goes
// into the environment of the processes npm start runs, and into the image.

/** The arenas our processes run with unless their environment says otherwise. */
export const MALLOC_ARENA_MAX = '2';

/** `env` with MALLOC_ARENA_MAX added where it does not set its own. */
export function withMallocArenas(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { MALLOC_ARENA_MAX, ...env };
}
