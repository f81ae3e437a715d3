// A bench's process ends with its main: code 0, or 1 with the reason on stderr
// (servers it started may hold handles that would keep it alive).
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(`bench failed: ${err instanceof Error ? err.message : err}`);
      process.exit(1);
    },
  );
}
