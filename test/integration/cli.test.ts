// The admin CLI as users run it (a child process), against the test database.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCli, adminCliProcess } from '../support/admin-cli.ts';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());

const cli = (...args: string[]) => adminCli(h, args);

describe('admin CLI', () => {
  it('creates a team, issues a key that authenticates, sets flags and credits, revokes the key', async () => {
    const name = `cli-${randomUUID()}`;
    const created = await cli('team', 'create', '--name', name, '--concurrency', '3', '--credits', '500', '--enable', 'zeroDataRetention');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/created: concurrency 3, credits 500/);
    expect(created.stdout).toMatch(/webhook signing secret: whsec_[0-9a-f]{48}/);

    const issued = await cli('key', 'create', '--team', name, '--name', 'ci');
    expect(issued.code).toBe(0);
    const key = issued.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^fc-[0-9a-f]{32}$/);
    const team = await h.db.team.findFirstOrThrow({ where: { name } });
    expect(await h.db.apiKey.count({ where: { teamId: team.id, keyHash: key } })).toBe(0);
    expect((await h.api('/v2/crawl/01890000-0000-7000-8000-000000000000', { key })).status).toBe(404);

    expect((await cli('team', 'flags', name, '--enable', 'ignoreRobotsTxt', '--disable', 'zeroDataRetention')).stdout).toMatch(
      /ignoreRobotsTxt=true .*zeroDataRetention=false/,
    );
    expect((await cli('team', 'credits', name, '--grant', '250')).stdout).toMatch(/credit balance of .*: 750/);
    expect((await cli('team', 'limits', name, '--concurrency', '8')).code).toBe(0);
    const updated = await h.db.team.findUniqueOrThrow({ where: { id: team.id } });
    expect(updated).toMatchObject({ flagIgnoreRobotsTxt: true, flagZeroDataRetention: false, creditBalance: 750, concurrencyLimit: 8 });

    const listed = await cli('key', 'list', '--team', name);
    const prefix = key.slice(0, 9);
    expect(listed.stdout).toContain(prefix);
    expect((await cli('key', 'revoke', prefix)).code).toBe(0);
    expect((await h.api('/v2/crawl/01890000-0000-7000-8000-000000000000', { key })).status).toBe(401);
    expect((await cli('key', 'list', '--team', name)).stdout).toMatch(/REVOKED/);
  });

  it("prints a team's usage month by month, by key, and the last months only", async () => {
    const name = `cli-${randomUUID()}`;
    await cli('team', 'create', '--name', name, '--credits', '10');
    const team = await h.db.team.findFirstOrThrow({ where: { name } });
    expect((await cli('team', 'usage', name)).stdout).toMatch(/no usage yet/);
    expect((await cli('team', 'plan', name, '--credits', '3000')).stdout).toMatch(/3000 credits a month/);
    expect((await h.db.team.findUniqueOrThrow({ where: { id: team.id } })).planCredits).toBe(3000);
    expect((await cli('team', 'plan', name, '--credits', '1', '--none')).code).not.toBe(0);
    expect((await cli('team', 'plan', name, '--none')).code).toBe(0);
    expect((await h.db.team.findUniqueOrThrow({ where: { id: team.id } })).planCredits).toBeNull();
    const key = await h.db.apiKey.create({ data: { id: randomUUID(), teamId: team.id, name: 'nightly', keyHash: randomUUID(), keyPrefix: 'fc-x' } });
    for (const [at, credits] of [
      ['2026-09-30T23:59:59.999Z', 2],
      ['2026-10-01T00:00:00.000Z', 5],
    ] as const) {
      await h.db.$executeRaw`INSERT INTO usage_entry (team_id, api_key_id, endpoint, job_id, item_key, credits, tokens, created_at)
        VALUES (${team.id}::uuid, ${key.id}::uuid, 'crawl', ${randomUUID()}, 'p', ${credits}, ${credits * 15}, ${new Date(at)})`;
    }
    const all = await cli('team', 'usage', name);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^2026-09 +2 +30$/m);
    expect(all.stdout).toMatch(/^2026-10 +5 +75$/m);
    const byKey = await cli('team', 'usage', name, '--by-key', '--months', '1');
    expect(byKey.stdout).not.toMatch(/^2026-09/m);
    const lines = byKey.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^\d{4}-\d{2} +nightly +\d+ +\d+$/);
  });

  it('has --help on every command and fails clearly on misuse', async () => {
    // The entry point itself, as operators run it: the command list, and the exit code of an unknown command.
    const top = await adminCliProcess(h, ['--help']);
    expect(top.code).toBe(0);
    const commands = [...top.stdout.matchAll(/^ {2}(\w+ \w+)\s/gm)].map((m) => m[1]);
    expect(commands).toEqual(
      expect.arrayContaining([
        'team create',
        'team list',
        'team flags',
        'team credits',
        'team secret',
        'key create',
        'key list',
        'key revoke',
        'jobs ls',
        'jobs show',
        'jobs cancel',
        'sessions ls',
        'sessions show',
        'sessions end',
      ]),
    );
    for (const c of commands) {
      const help = await cli(...c.split(' '), '--help');
      expect(help.code, c).toBe(0);
      expect(help.stdout, c).toMatch(new RegExp(`^usage: npm run cli -- ${c}`));
    }
    const bad = await cli('team', 'flags', 'nobody-by-this-name', '--enable', 'ignoreRobotsTxt');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: no team "nobody-by-this-name"/);
    const unknownFlag = await cli('team', 'create', '--name', 'x', '--enable', 'teleport');
    expect(unknownFlag.stderr).toMatch(/unknown flag "teleport"/);
    expect((await cli('frobnicate')).code).toBe(2);
    const unknown = await adminCliProcess(h, ['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('error: unknown command "frobnicate"\n');
  });

  it('tells whether a team has a webhook signing secret and shows it only with --show', async () => {
    const name = `cli-${randomUUID()}`;
    await cli('team', 'create', '--name', name);
    const { webhookSigningSecret } = await h.db.team.findFirstOrThrow({ where: { name } });
    expect(webhookSigningSecret).toMatch(/^whsec_/);

    const told = await cli('team', 'secret', name);
    expect(told.code).toBe(0);
    expect(told.stdout).toMatch(/has a webhook signing secret \(not shown\)/);
    expect(told.stdout).toMatch(/--show .*--rotate/);
    expect(told.stdout).not.toContain(webhookSigningSecret!);
    const toldJson = await cli('team', 'secret', name, '--json');
    expect(JSON.parse(toldJson.stdout)).toEqual({ team: name, hasWebhookSigningSecret: true });
    expect(toldJson.stdout).not.toContain(webhookSigningSecret!);

    const shown = await cli('team', 'secret', name, '--show');
    expect(shown.code).toBe(0);
    expect(shown.stdout.trim()).toBe(`webhook signing secret: ${webhookSigningSecret}`);
    expect((await cli('team', 'secret', name, '--show', '--rotate')).code).toBe(2);

    expect((await cli('team', 'secret', name, '--remove')).stdout).toMatch(/webhook signing removed/);
    expect((await cli('team', 'secret', name)).stdout).toMatch(/has no webhook signing secret/);
  });
});
