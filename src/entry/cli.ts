// Admin CLI: `npm run cli -- <group> <command> [options]`. Works against
// DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (reusing the one
// `npm start` runs, or starting it for the duration of the command).
import { parseArgs } from 'node:util';
import { toTokens, usageHistory } from '../features/team/usage-report.ts';
import { loadConfig } from '../platform/config.ts';
import { connectEmbeddedPostgres } from '../platform/db/embedded-postgres.ts';
import { migrate } from '../platform/db/migrate.ts';
import { createDb, type Db } from '../platform/db/prisma.ts';
import { createLogger } from '../platform/log.ts';
import {
  createTeam,
  FLAG_NAMES,
  findTeam,
  grantCredits,
  issueApiKey,
  newSigningSecret,
  NotFoundError,
  revokeApiKey,
  setTeamFlags,
  teamFlags,
  type TeamFlags,
} from '../platform/teams/teams.ts';

type Options = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

interface Command {
  summary: string;
  usage: string;
  options: Options;
  positionals?: number;
  run(db: Db, values: Record<string, unknown>, positionals: string[]): Promise<void>;
}

const out = (line = '') => process.stdout.write(`${line}\n`);

function positiveInt(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer`);
  return n;
}

function parseFlags(list: unknown, value: boolean): TeamFlags {
  const flags: TeamFlags = {};
  for (const name of (list as string[] | undefined) ?? []) {
    if (!FLAG_NAMES.includes(name as keyof TeamFlags)) throw new UsageError(`unknown flag "${name}"; flags: ${FLAG_NAMES.join(', ')}`);
    flags[name as keyof TeamFlags] = value;
  }
  return flags;
}

class UsageError extends Error {}

const COMMANDS: Record<string, Command> = {
  'team create': {
    summary: 'Create a team (prints its id and webhook signing secret).',
    usage: 'team create --name <name> [--concurrency <n>] [--credits <n>] [--enable <flag> ...]',
    options: { name: { type: 'string' }, concurrency: { type: 'string' }, credits: { type: 'string' }, enable: { type: 'string', multiple: true } },
    async run(db, v) {
      if (!v.name) throw new UsageError('--name is required');
      const team = await createTeam(db, {
        name: String(v.name),
        concurrencyLimit: positiveInt(v.concurrency, 'concurrency'),
        credits: positiveInt(v.credits, 'credits'),
        flags: parseFlags(v.enable, true),
      });
      out(`team ${team.id} "${team.name}" created: concurrency ${team.concurrencyLimit}, credits ${team.creditBalance}`);
      out(`webhook signing secret: ${team.webhookSigningSecret}`);
    },
  },
  'team list': {
    summary: 'List teams with their limits, credits and flags.',
    usage: 'team list',
    options: {},
    async run(db) {
      const teams = await db.team.findMany({ orderBy: { createdAt: 'asc' }, include: { _count: { select: { apiKeys: { where: { revokedAt: null } } } } } });
      for (const t of teams) {
        const enabled = teamFlags(t);
        const flags = FLAG_NAMES.filter((f) => enabled[f]);
        out(`${t.id}  ${t.name}  concurrency=${t.concurrencyLimit} credits=${t.creditBalance} keys=${t._count.apiKeys} flags=${flags.join(',') || '-'}`);
      }
    },
  },
  'team flags': {
    summary: `Enable or disable team feature flags (${FLAG_NAMES.join(', ')}).`,
    usage: 'team flags <team-id-or-name> [--enable <flag> ...] [--disable <flag> ...]',
    options: { enable: { type: 'string', multiple: true }, disable: { type: 'string', multiple: true } },
    positionals: 1,
    async run(db, v, [teamRef]) {
      const team = await findTeam(db, teamRef);
      const updated = await setTeamFlags(db, team.id, { ...parseFlags(v.enable, true), ...parseFlags(v.disable, false) });
      const flags = teamFlags(updated);
      out(`flags of ${updated.name}: ${FLAG_NAMES.map((f) => `${f}=${flags[f]}`).join(' ')}`);
    },
  },
  'team limits': {
    summary: "Set a team's concurrency limit (pages scraped at once across all its crawls).",
    usage: 'team limits <team-id-or-name> --concurrency <n>',
    options: { concurrency: { type: 'string' } },
    positionals: 1,
    async run(db, v, [teamRef]) {
      const concurrency = positiveInt(v.concurrency, 'concurrency');
      if (!concurrency) throw new UsageError('--concurrency must be a positive integer');
      const team = await findTeam(db, teamRef);
      await db.team.update({ where: { id: team.id }, data: { concurrencyLimit: concurrency } });
      out(`concurrency limit of ${team.name}: ${concurrency}`);
    },
  },
  'team plan': {
    summary: "Set a team's monthly plan allotment, which GET /v2/team/credit-usage reports as planCredits (--none removes it).",
    usage: 'team plan <team-id-or-name> (--credits <n> | --none)',
    options: { credits: { type: 'string' }, none: { type: 'boolean' } },
    positionals: 1,
    async run(db, v, [teamRef]) {
      const credits = positiveInt(v.credits, 'credits');
      if ((credits === undefined) === (v.none !== true)) throw new UsageError('give exactly one of --credits <n> and --none');
      const team = await findTeam(db, teamRef);
      await db.team.update({ where: { id: team.id }, data: { planCredits: credits ?? null } });
      out(credits === undefined ? `plan of ${team.name}: none` : `plan of ${team.name}: ${credits} credits a month`);
    },
  },
  'team credits': {
    summary: 'Grant credits to a team (a negative amount takes them away).',
    usage: 'team credits <team-id-or-name> --grant <n>',
    options: { grant: { type: 'string' } },
    positionals: 1,
    async run(db, v, [teamRef]) {
      const amount = Number(v.grant);
      if (!Number.isInteger(amount) || amount === 0) throw new UsageError('--grant must be a non-zero integer');
      const team = await findTeam(db, teamRef);
      const updated = await grantCredits(db, team.id, amount);
      out(`credit balance of ${updated.name}: ${updated.creditBalance}`);
    },
  },
  'team usage': {
    summary: "Print a team's credit usage month by month (UTC), as GET /v2/team/credit-usage/historical answers it.",
    usage: 'team usage <team-id-or-name> [--by-key] [--months <n>]',
    options: { 'by-key': { type: 'boolean' }, months: { type: 'string' } },
    positionals: 1,
    async run(db, v, [teamRef]) {
      const months = positiveInt(v.months, 'months');
      const team = await findTeam(db, teamRef);
      const periods = await usageHistory(db, team.id, v['by-key'] === true);
      const lastMonths = new Set([...new Set(periods.map((p) => p.startDate))].slice(-(months ?? Infinity)));
      const shown = periods.filter((p) => lastMonths.has(p.startDate));
      out(`credit usage of ${team.name} (balance ${team.creditBalance})`);
      if (shown.length === 0) {
        out('no usage yet');
        return;
      }
      out(
        v['by-key']
          ? `${'month'.padEnd(8)} ${'key'.padEnd(24)} ${'credits'.padStart(10)} ${'tokens'.padStart(12)}`
          : `${'month'.padEnd(8)} ${'credits'.padStart(10)} ${'tokens'.padStart(12)}`,
      );
      for (const p of shown) {
        const key = v['by-key'] ? ` ${(p.apiKey ?? '(no key)').slice(0, 24).padEnd(24)}` : '';
        out(`${p.startDate.slice(0, 7).padEnd(8)}${key} ${String(p.credits).padStart(10)} ${String(toTokens(p.credits)).padStart(12)}`);
      }
    },
  },
  'team secret': {
    summary: "Show, rotate or remove a team's webhook signing secret.",
    usage: 'team secret <team-id-or-name> [--rotate | --remove]',
    options: { rotate: { type: 'boolean' }, remove: { type: 'boolean' } },
    positionals: 1,
    async run(db, v, [teamRef]) {
      const team = await findTeam(db, teamRef);
      if (v.rotate && v.remove) throw new UsageError('--rotate and --remove exclude each other');
      if (v.rotate || v.remove) {
        const secret = v.rotate ? newSigningSecret() : null;
        await db.team.update({ where: { id: team.id }, data: { webhookSigningSecret: secret } });
        out(secret ? `new webhook signing secret: ${secret}` : 'webhook signing removed');
      } else {
        out(team.webhookSigningSecret ? `webhook signing secret: ${team.webhookSigningSecret}` : 'no webhook signing secret');
      }
    },
  },
  'key create': {
    summary: 'Issue an API key for a team. The key is printed once and stored only as a hash.',
    usage: 'key create --team <team-id-or-name> [--name <label>]',
    options: { team: { type: 'string' }, name: { type: 'string' } },
    async run(db, v) {
      if (!v.team) throw new UsageError('--team is required');
      const team = await findTeam(db, String(v.team));
      const { key, id } = await issueApiKey(db, team.id, v.name ? String(v.name) : 'default');
      out(`key ${id} for team ${team.name}:`);
      out(key);
    },
  },
  'key list': {
    summary: "List a team's API keys (prefixes only).",
    usage: 'key list --team <team-id-or-name>',
    options: { team: { type: 'string' } },
    async run(db, v) {
      if (!v.team) throw new UsageError('--team is required');
      const team = await findTeam(db, String(v.team));
      const keys = await db.apiKey.findMany({ where: { teamId: team.id }, orderBy: { createdAt: 'asc' } });
      for (const k of keys)
        out(`${k.id}  ${k.keyPrefix}…  ${k.name}  created ${k.createdAt.toISOString()}${k.revokedAt ? `  REVOKED ${k.revokedAt.toISOString()}` : ''}`);
    },
  },
  'key revoke': {
    summary: 'Revoke an API key by id or by its listed prefix. Requests with it then get 401.',
    usage: 'key revoke <key-id-or-prefix>',
    options: {},
    positionals: 1,
    async run(db, _v, [ref]) {
      await revokeApiKey(db, ref);
      out(`revoked ${ref}`);
    },
  },
};

function help(): string {
  const lines = ['usage: npm run cli -- <command> [options]   (add --help to any command)', '', 'commands:'];
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
    options: { ...command.options, help: { type: 'boolean', short: 'h' } },
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
  try {
    await migrate(url, log);
    const db = createDb(url, 2);
    try {
      await command.run(db, values, positionals);
    } finally {
      await db.$disconnect();
    }
  } finally {
    await pg?.stop();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    const known = err instanceof UsageError || err instanceof NotFoundError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`error: ${(err as Error).message ?? err}\n`);
    process.exit(known ? 2 : 1);
  },
);
