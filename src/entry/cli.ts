// Admin CLI: `npm run cli -- <group> <command> [options]`. Works against
// DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (reusing the one
// `npm start` runs, or starting it for the duration of the command). Commands
// that act on workflows (jobs cancel, sessions end) need Temporal: TEMPORAL_ADDRESS,
// or the dev server `npm start` runs; the CLI does not start one.
import { loadConfig } from '../config.ts';
import { runCli } from './cli/run-cli.ts';

void runCli(process.argv.slice(2), {
  loadConfig,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then((code) => process.exit(code));
