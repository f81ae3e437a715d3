// Admin CLI: `npm run cli -- <group> <command> [options]`. Works against
// DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (reusing the one
// `npm start` runs, or starting it for the duration of the command). Commands
// that act on workflows (jobs cancel, sessions end) need Temporal: TEMPORAL_ADDRESS,
// or the dev server `npm start` runs; the CLI does not start one.
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config.ts';
import { connectEmbeddedPostgres } from '../platform/db/embedded-postgres.ts';
import { migrate } from '../platform/db/migrate.ts';
import { createDb } from '../platform/db/prisma.ts';
import { createLogger } from '../platform/log.ts';
import { NotFoundError } from '../platform/teams/teams.ts';
import { UsageError, type Command } from './cli/command.ts';
import { JOB_COMMANDS } from './cli/job-commands.ts';
import { SESSION_COMMANDS } from './cli/session-commands.ts';
import { TEAM_COMMANDS } from './cli/team-commands.ts';
import { lazyTemporal } from './cli/temporal-access.ts';

const COMMANDS: Record<string, Command> = { ...TEAM_COMMANDS, ...JOB_COMMANDS, ...SESSION_COMMANDS };

const out = (line = '') => process.stdout.write(`${line}\n`);

function help(): string {
  const lines = ['usage: npm run cli -- <command> [options]   (add --help to any command, --json for machine-readable output)', '', 'commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(14)} ${c.summary}`);
  return lines.join('\n');
}

async function main(argv: string[]) {
  const name = argv.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) {
    out(help());
    if (argv.length && !['--help', '-h', 'help'].includes(argv[0])) throw new UsageError(`unknown command "${argv.join(' ')}"`);
    return;
  }
  const { values, positionals } = parseArgs({
    args: argv.slice(2),
    options: { ...command.options, help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    out(`usage: npm run cli -- ${command.usage}\n\n${command.summary}`);
    return;
  }
  if (positionals.length !== (command.positionals ?? 0)) throw new UsageError(`usage: npm run cli -- ${command.usage}`);

  const config = loadConfig();
  const log = createLogger('warn', { process: 'cli' });
  const pg = config.database.url
    ? undefined
    : await connectEmbeddedPostgres({ dataDir: config.dataDir, port: config.database.embeddedPort, database: 'crawl', log });
  const url = config.database.url ?? pg!.url;
  const temporal = lazyTemporal(config, log);
  try {
    await migrate(url, log);
    const db = createDb(url, 2);
    try {
      const report = await command.run({ db, temporal: temporal.temporal }, values, positionals);
      if (values.json) out(JSON.stringify(report.data, null, 2));
      else report.text.forEach((line) => out(line));
    } finally {
      await db.$disconnect();
    }
  } finally {
    await temporal.close();
    await pg?.stop();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    const usage = err instanceof UsageError || err instanceof NotFoundError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`error: ${(err as Error).message ?? err}\n`);
    process.exit(usage ? 2 : 1);
  },
);
