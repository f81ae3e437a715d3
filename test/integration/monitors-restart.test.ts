// A monitor's schedule survives `npm start` being stopped (Ctrl-C) and started again:
// the Temporal dev server keeps it in its SQLite file, the monitor answers as before,
// and a check runs on the second start.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Firecrawl from '@mendable/firecrawl-js';
import { expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.ts';
import { exited, npmStart, npmStartSuite, type NpmStart } from '../support/npm-start.ts';

const suite = npmStartSuite({ prefix: 'monitor-restart-', pages: 3 });

/** The schedule as the Temporal CLI describes it; a failure says what the running start printed (a restarted server, say). */
async function describeSchedule(monitorId: string, start: NpmStart): Promise<string> {
  const { stdout } = await promisify(execFile)(process.env.TEMPORAL_CLI_PATH!, [
    'schedule',
    'describe',
    '--schedule-id',
    `monitor-${monitorId}`,
    '--address',
    `127.0.0.1:${suite.env.TEMPORAL_DEV_PORT}`,
    '--namespace',
    'default',
    '--output',
    'json',
  ]).catch((err: Error) => {
    throw new Error(`${err.message}\nnpm start printed:\n${start.output()}`);
  });
  return stdout;
}

it('keeps the schedule across a stop and a start', async () => {
  const first = await npmStart(suite.env, suite.started);
  const key = /API key:\s+(fc-[0-9a-f]{32})/.exec(first.output())?.[1];
  expect(key, first.output()).toBeDefined();
  const client = new Firecrawl({ apiKey: key!, apiUrl: suite.apiBase });
  const monitor = await client.createMonitor({
    name: 'restart',
    schedule: { text: 'daily at 3:00', timezone: 'UTC' },
    targets: [{ type: 'scrape', urls: [`${suite.site.url}/`] }],
  });
  expect(await describeSchedule(monitor.id, first)).toContain('monitorCheckWorkflow');

  first.proc.kill('SIGINT');
  expect(await exited(first.proc)).toBe(0);

  const second = await npmStart(suite.env, suite.started);
  expect(await describeSchedule(monitor.id, second)).toContain(`monitor-check-${monitor.id}`);
  const again = await client.getMonitor(monitor.id);
  expect(again).toMatchObject({ status: 'active', schedule: { cron: '0 3 * * *', text: 'daily at 3:00', timezone: 'UTC' } });
  expect(again.nextRunAt).toBe(monitor.nextRunAt);
  const queued = await client.runMonitor(monitor.id);
  const check = await waitFor('the check to end', async () => {
    const c = (await client.listMonitorChecks(monitor.id)).find((x) => x.id === queued.id);
    return c && c.status !== 'queued' && c.status !== 'running' ? c : undefined;
  });
  expect(check).toMatchObject({ status: 'completed', summary: { totalPages: 1, new: 1 } });
  second.proc.kill('SIGINT');
  expect(await exited(second.proc)).toBe(0);
});
