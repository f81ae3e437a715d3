// Teams and their API keys: create, list, flags, limits, plan, credits, usage,
// the webhook signing secret, keys issued and revoked.
import { usageHistory } from '../../features/team/usage-report.ts';
import {
  createTeam,
  FLAG_NAMES,
  findTeam,
  grantCredits,
  issueApiKey,
  newSigningSecret,
  revokeApiKey,
  setTeamFlags,
  teamFlags,
  type TeamFlags,
} from '../../platform/teams/teams.ts';
import { nonNegativeInt, UsageError, type Command } from './command.ts';

function parseFlags(list: unknown, value: boolean): TeamFlags {
  const flags: TeamFlags = {};
  for (const name of (list as string[] | undefined) ?? []) {
    if (!FLAG_NAMES.includes(name as keyof TeamFlags)) throw new UsageError(`unknown flag "${name}"; flags: ${FLAG_NAMES.join(', ')}`);
    flags[name as keyof TeamFlags] = value;
  }
  return flags;
}

export const TEAM_COMMANDS: Record<string, Command> = {
  'team create': {
    summary: 'Create a team (prints its id and webhook signing secret).',
    usage: 'team create --name <name> [--concurrency <n>] [--credits <n>] [--enable <flag> ...]',
    options: { name: { type: 'string' }, concurrency: { type: 'string' }, credits: { type: 'string' }, enable: { type: 'string', multiple: true } },
    async run({ db }, v) {
      if (!v.name) throw new UsageError('--name is required');
      const team = await createTeam(db, {
        name: String(v.name),
        concurrencyLimit: nonNegativeInt(v.concurrency, 'concurrency'),
        credits: nonNegativeInt(v.credits, 'credits'),
        flags: parseFlags(v.enable, true),
      });
      return {
        data: {
          id: team.id,
          name: team.name,
          concurrency: team.concurrencyLimit,
          credits: team.creditBalance,
          webhookSigningSecret: team.webhookSigningSecret,
        },
        text: [
          `team ${team.id} "${team.name}" created: concurrency ${team.concurrencyLimit}, credits ${team.creditBalance}`,
          `webhook signing secret: ${team.webhookSigningSecret}`,
        ],
      };
    },
  },
  'team list': {
    summary: 'List teams with their limits, credits and flags.',
    usage: 'team list',
    options: {},
    async run({ db }) {
      const teams = await db.team.findMany({ orderBy: { createdAt: 'asc' }, include: { _count: { select: { apiKeys: { where: { revokedAt: null } } } } } });
      const listed = teams.map((t) => {
        const enabled = teamFlags(t);
        return {
          id: t.id,
          name: t.name,
          concurrency: t.concurrencyLimit,
          credits: t.creditBalance,
          keys: t._count.apiKeys,
          flags: FLAG_NAMES.filter((f) => enabled[f]),
        };
      });
      return {
        data: { teams: listed },
        text: listed.map((t) => `${t.id}  ${t.name}  concurrency=${t.concurrency} credits=${t.credits} keys=${t.keys} flags=${t.flags.join(',') || '-'}`),
      };
    },
  },
  'team flags': {
    summary: `Enable or disable team feature flags (${FLAG_NAMES.join(', ')}).`,
    usage: 'team flags <team-id-or-name> [--enable <flag> ...] [--disable <flag> ...]',
    options: { enable: { type: 'string', multiple: true }, disable: { type: 'string', multiple: true } },
    positionals: 1,
    async run({ db }, v, [teamRef]) {
      const team = await findTeam(db, teamRef);
      const updated = await setTeamFlags(db, team.id, { ...parseFlags(v.enable, true), ...parseFlags(v.disable, false) });
      const flags = teamFlags(updated);
      return { data: { team: updated.name, flags }, text: [`flags of ${updated.name}: ${FLAG_NAMES.map((f) => `${f}=${flags[f]}`).join(' ')}`] };
    },
  },
  'team limits': {
    summary: "Set a team's concurrency limit (pages scraped at once across all its crawls).",
    usage: 'team limits <team-id-or-name> --concurrency <n>',
    options: { concurrency: { type: 'string' } },
    positionals: 1,
    async run({ db }, v, [teamRef]) {
      const concurrency = nonNegativeInt(v.concurrency, 'concurrency');
      if (!concurrency) throw new UsageError('--concurrency must be a positive integer');
      const team = await findTeam(db, teamRef);
      await db.team.update({ where: { id: team.id }, data: { concurrencyLimit: concurrency } });
      return { data: { team: team.name, concurrency }, text: [`concurrency limit of ${team.name}: ${concurrency}`] };
    },
  },
  'team plan': {
    summary: "Set a team's monthly plan allotment, which GET /v2/team/credit-usage reports as planCredits (--none removes it).",
    usage: 'team plan <team-id-or-name> (--credits <n> | --none)',
    options: { credits: { type: 'string' }, none: { type: 'boolean' } },
    positionals: 1,
    async run({ db }, v, [teamRef]) {
      const credits = nonNegativeInt(v.credits, 'credits');
      if ((credits === undefined) === (v.none !== true)) throw new UsageError('give exactly one of --credits <n> and --none');
      const team = await findTeam(db, teamRef);
      await db.team.update({ where: { id: team.id }, data: { planCredits: credits ?? null } });
      return {
        data: { team: team.name, planCredits: credits ?? null },
        text: [credits === undefined ? `plan of ${team.name}: none` : `plan of ${team.name}: ${credits} credits a month`],
      };
    },
  },
  'team credits': {
    summary: 'Grant credits to a team (a negative amount takes them away).',
    usage: 'team credits <team-id-or-name> --grant <n>',
    options: { grant: { type: 'string' } },
    positionals: 1,
    async run({ db }, v, [teamRef]) {
      const amount = Number(v.grant);
      if (!Number.isInteger(amount) || amount === 0) throw new UsageError('--grant must be a non-zero integer');
      const team = await findTeam(db, teamRef);
      const updated = await grantCredits(db, team.id, amount);
      return { data: { team: updated.name, credits: updated.creditBalance }, text: [`credit balance of ${updated.name}: ${updated.creditBalance}`] };
    },
  },
  'team usage': {
    summary: "Print a team's credit usage month by month (UTC), as GET /v2/team/credit-usage/historical answers it.",
    usage: 'team usage <team-id-or-name> [--by-key] [--months <n>]',
    options: { 'by-key': { type: 'boolean' }, months: { type: 'string' } },
    positionals: 1,
    async run({ db }, v, [teamRef]) {
      const months = nonNegativeInt(v.months, 'months');
      const byKey = v['by-key'] === true;
      const team = await findTeam(db, teamRef);
      const periods = await usageHistory(db, team.id, byKey);
      const lastMonths = new Set([...new Set(periods.map((p) => p.startDate))].slice(-(months ?? Infinity)));
      const shown = periods.filter((p) => lastMonths.has(p.startDate));
      const data = { team: team.name, balance: team.creditBalance, periods: shown };
      const text = [`credit usage of ${team.name} (balance ${team.creditBalance})`];
      if (shown.length === 0) return { data, text: [...text, 'no usage yet'] };
      text.push(
        byKey
          ? `${'month'.padEnd(8)} ${'key'.padEnd(24)} ${'credits'.padStart(10)} ${'tokens'.padStart(12)}`
          : `${'month'.padEnd(8)} ${'credits'.padStart(10)} ${'tokens'.padStart(12)}`,
      );
      for (const p of shown) {
        const key = byKey ? ` ${(p.apiKey ?? '(no key)').slice(0, 24).padEnd(24)}` : '';
        text.push(`${p.startDate.slice(0, 7).padEnd(8)}${key} ${String(p.credits).padStart(10)} ${String(p.tokens).padStart(12)}`);
      }
      return { data, text };
    },
  },
  'team secret': {
    summary: 'Say whether a team has a webhook signing secret; show it (--show), rotate or remove it.',
    usage: 'team secret <team-id-or-name> [--show | --rotate | --remove]',
    options: { show: { type: 'boolean' }, rotate: { type: 'boolean' }, remove: { type: 'boolean' } },
    positionals: 1,
    async run({ db }, v, [teamRef]) {
      if ([v.show, v.rotate, v.remove].filter(Boolean).length > 1) throw new UsageError('--show, --rotate and --remove exclude each other');
      const team = await findTeam(db, teamRef);
      if (v.rotate || v.remove) {
        const secret = v.rotate ? newSigningSecret() : null;
        await db.team.update({ where: { id: team.id }, data: { webhookSigningSecret: secret } });
        return {
          data: { team: team.name, webhookSigningSecret: secret },
          text: [secret ? `new webhook signing secret: ${secret}` : 'webhook signing removed'],
        };
      }
      const exists = team.webhookSigningSecret !== null;
      if (v.show) {
        return {
          data: { team: team.name, webhookSigningSecret: team.webhookSigningSecret },
          text: [exists ? `webhook signing secret: ${team.webhookSigningSecret}` : 'no webhook signing secret'],
        };
      }
      // A secret on screen ends up in terminal scrollback and shared logs: it is printed only when asked for.
      const how = `npm run cli -- team secret ${teamRef}`;
      return {
        data: { team: team.name, hasWebhookSigningSecret: exists },
        text: exists
          ? [`${team.name} has a webhook signing secret (not shown).`, `show it: ${how} --show   rotate it: ${how} --rotate`]
          : [`${team.name} has no webhook signing secret; webhooks go unsigned.`, `create one: ${how} --rotate`],
      };
    },
  },
  'key create': {
    summary: 'Issue an API key for a team. The key is printed once and stored only as a hash.',
    usage: 'key create --team <team-id-or-name> [--name <label>]',
    options: { team: { type: 'string' }, name: { type: 'string' } },
    async run({ db }, v) {
      if (!v.team) throw new UsageError('--team is required');
      const team = await findTeam(db, String(v.team));
      const { key, id } = await issueApiKey(db, team.id, v.name ? String(v.name) : 'default');
      return { data: { id, team: team.name, key }, text: [`key ${id} for team ${team.name}:`, key] };
    },
  },
  'key list': {
    summary: "List a team's API keys (prefixes only).",
    usage: 'key list --team <team-id-or-name>',
    options: { team: { type: 'string' } },
    async run({ db }, v) {
      if (!v.team) throw new UsageError('--team is required');
      const team = await findTeam(db, String(v.team));
      const keys = await db.apiKey.findMany({ where: { teamId: team.id }, orderBy: { createdAt: 'asc' } });
      return {
        data: { keys: keys.map((k) => ({ id: k.id, prefix: k.keyPrefix, name: k.name, createdAt: k.createdAt, revokedAt: k.revokedAt })) },
        text: keys.map(
          (k) => `${k.id}  ${k.keyPrefix}…  ${k.name}  created ${k.createdAt.toISOString()}${k.revokedAt ? `  REVOKED ${k.revokedAt.toISOString()}` : ''}`,
        ),
      };
    },
  },
  'key revoke': {
    summary: 'Revoke an API key by id or by its listed prefix. Requests with it then get 401.',
    usage: 'key revoke <key-id-or-prefix>',
    options: {},
    positionals: 1,
    async run({ db }, _v, [ref]) {
      await revokeApiKey(db, ref);
      return { data: { revoked: ref }, text: [`revoked ${ref}`] };
    },
  },
};
