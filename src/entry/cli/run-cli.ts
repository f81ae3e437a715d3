// One run of the admin CLI (src/entry/cli.ts): parses the command line, runs the
// command against the database (and Temporal when it needs it) and writes its
// report, answering the exit code. The tests run it in-process.
import { parseArgs } from 'node:util';
import type { Config } from '../../config.ts';
import { connectEmbeddedPostgres } from '../../platform/db/embedded-postgres.ts';
import { migrate } from '../../platform/db/migrate.ts';
import { createDb } from '../../platform/db/prisma.ts';
import { createLogger } from '../../platform/log.ts';
import { NotFoundError } from '../../platform/teams/teams.ts';
import { UsageError, type Command } from './command.ts';
import { JOB_COMMANDS } from './job-commands.ts';
import { JOB_CONTROL_COMMANDS } from './job-controls.ts';
import { SESSION_COMMANDS } from './session-commands.ts';
import { TEAM_COMMANDS } from './team-commands.ts';
import { lazyTemporal } from './temporal-access.ts';

const COMMANDS: Record<string, Command> = { ...TEAM_COMMANDS, ...JOB_COMMANDS, ...JOB_CONTROL_COMMANDS, ...SESSION_COMMANDS };

/** Where a run of the CLI reads its settings and writes its lines. */
export interface CliIo {
  loadConfig(): Config;
  out(line: string): void;
  err(line: string): void;
}

function help(): string {
  const lines = ['usage: npm run cli -- <command> [options]   (add --help to any command, --json for machine-readable output)', '', 'commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(14)} ${c.summary}`);
  return lines.join('\n');
}

async function main(argv: string[], io: CliIo) {
  const out = (line = '') => io.out(line);
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

  const config = io.loadConfig();
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

/** Runs one command; answers the exit code: 0, 1 when it failed, 2 when it was used wrongly. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    await main(argv, io);
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError || err instanceof NotFoundError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    io.err(`error: ${(err as Error).message ?? err}`);
    return usage ? 2 : 1;
  }
}
