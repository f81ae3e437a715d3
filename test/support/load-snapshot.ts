// What a team's unfinished work holds, read straight from PostgreSQL: when a job of a
// load does not end, this says where it stands (pages stored, frontier states,
// team slots and their holders, browser leases and demand) rather than only that it timed out;
// and once a load has ended, whether anything is still held.
import type { Db } from '../../src/platform/db/prisma.ts';

/** Whether these teams' work holds nothing any more: no job scraping, no slot, browser or host lease, demand or live session. */
export async function nothingHeld(db: Db, teamIds: string[]): Promise<boolean> {
  const teamId = { in: teamIds };
  const counts = await Promise.all([
    db.job.count({ where: { teamId, status: 'scraping' } }),
    db.teamSlot.count({ where: { teamId, holder: { not: null } } }),
    db.browserLease.count({ where: { teamId } }),
    db.browserDemand.count({ where: { teamId } }),
    db.browserSession.count({ where: { teamId, status: { in: ['starting', 'active'] } } }),
    db.hostLease.count({ where: { teamId } }),
  ]);
  return counts.every((n) => n === 0);
}

export async function loadSnapshot(db: Db, teamIds: string[]): Promise<string> {
  const now = new Date();
  const running = await db.job.findMany({
    where: { teamId: { in: teamIds }, status: 'scraping' },
    select: { id: true, teamId: true, kind: true, url: true, createdAt: true },
  });
  const lines = [`snapshot at ${now.toISOString()}: ${running.length} job(s) of these teams still scraping`];
  for (const c of running) {
    const [pages, frontier, open] = await Promise.all([
      db.jobPage.count({ where: { jobId: c.id } }),
      db.jobUrl.groupBy({ by: ['state'], where: { jobId: c.id }, _count: true }),
      db.jobUrl.findMany({ where: { jobId: c.id, state: { not: 'done' } }, select: { url: true, state: true, claimedBy: true }, take: 10 }),
    ]);
    const states = frontier.map((f) => `${f.state} ${f._count}`).join(', ');
    lines.push(
      `  ${c.kind} ${c.id} of team ${c.teamId} (${c.url}), ${Math.round((now.getTime() - c.createdAt.getTime()) / 1000)} s old: ${pages} pages stored; frontier: ${states}`,
    );
    for (const u of open) lines.push(`    ${u.state} ${u.url}${u.claimedBy ? ` by ${u.claimedBy}` : ''}`);
  }
  const slots = await db.teamSlot.findMany({ where: { teamId: { in: teamIds }, holder: { not: null } }, orderBy: [{ teamId: 'asc' }, { slot: 'asc' }] });
  lines.push(`team_slot rows with a holder: ${slots.length}`);
  for (const s of slots)
    lines.push(
      `  team ${s.teamId} slot ${s.slot}: holder ${s.holder} of ${s.holderGroup}, leased until ${s.leasedUntil?.toISOString()}${s.leasedUntil && s.leasedUntil < now ? ' (lapsed)' : ''}`,
    );
  const [leases, demand] = await Promise.all([
    db.browserLease.findMany({ where: { teamId: { in: teamIds } } }),
    db.browserDemand.findMany({ where: { teamId: { in: teamIds } } }),
  ]);
  lines.push(
    `browser_lease rows: ${leases.length}`,
    ...leases.map((l) => `  ${l.groupId} (${l.holder}) since ${l.startedAt.toISOString()}, alive until ${l.aliveUntil.toISOString()}`),
  );
  lines.push(
    `browser_demand rows: ${demand.length}`,
    ...demand.map((d) => `  ${d.groupId} (${d.holder}) since ${d.requestedAt.toISOString()}${d.servedBy ? `, promised by ${d.servedBy}` : ''}`),
  );
  const hostLeases = await db.hostLease.findMany({ where: { teamId: { in: teamIds } } });
  lines.push(
    `host_lease rows: ${hostLeases.length}`,
    ...hostLeases.map((h) => `  ${h.host} (${h.holder}, team ${h.teamId}) ${h.waiting ? 'waiting' : 'in flight'}, until ${h.expiresAt.toISOString()}`),
  );
  const [claimed, sessions] = await Promise.all([
    db.jobUrl.findMany({
      where: { job: { teamId: { in: teamIds } }, claimedBy: { not: null }, state: { not: 'done' } },
      select: { jobId: true, url: true, state: true, claimedBy: true },
      take: 10,
    }),
    db.browserSession.findMany({ where: { teamId: { in: teamIds }, status: { in: ['starting', 'active'] } } }),
  ]);
  lines.push(`claimed frontier rows not done: ${claimed.length}`, ...claimed.map((u) => `  ${u.jobId} ${u.state} ${u.url} by ${u.claimedBy}`));
  lines.push(
    `browser sessions starting or active: ${sessions.length}`,
    ...sessions.map((s) => `  ${s.id} ${s.status} since ${s.createdAt.toISOString()}, expires ${s.expiresAt.toISOString()}`),
  );
  lines.push(...(await unindexedPages(db, teamIds)));
  lines.push(...(await busySessions(db)));
  return lines.join('\n');
}

/** The database's sessions that are not idle: a statement waiting on a lock, a transaction left open, hold a job up where no row says so. */
async function busySessions(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<{ pid: number; state: string; wait: string | null; blocked_by: number[]; xact_s: number | null; query: string }[]>`
    SELECT pid, state, wait_event_type || ':' || wait_event AS wait, pg_blocking_pids(pid) AS blocked_by,
      round(extract(epoch FROM now() - xact_start))::int AS xact_s, left(query, 200) AS query
    FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`;
  return [
    `database sessions not idle: ${rows.length}`,
    ...rows.map(
      (r) =>
        `  ${r.pid} ${r.state}${r.wait ? ` waiting ${r.wait}` : ''}${r.blocked_by.length ? ` blocked by ${r.blocked_by.join(',')}` : ''}, transaction ${r.xact_s ?? '-'} s: ${r.query}`,
    ),
  ];
}

/** Pages these teams stored that their search index lacks (it is written in the pages' own transaction). */
async function unindexedPages(db: Db, teamIds: string[]): Promise<string[]> {
  const rows = await db.$queryRaw<{ team_id: string; crawl_id: string; kind: string; url: string; url_key: string }[]>`
    SELECT c.team_id, c.id AS crawl_id, c.kind, p.url, p.url_key FROM job_page p JOIN job c ON c.id = p.job_id
    WHERE c.team_id = ANY(${teamIds}::uuid[]) AND p.success
      AND NOT EXISTS (SELECT 1 FROM search_page s WHERE s.team_id = c.team_id AND s.url_key = p.url_key)
    LIMIT 10`;
  return [`stored pages not in their team's search index: ${rows.length}`, ...rows.map((r) => `  ${r.kind} ${r.crawl_id} ${r.url} (${r.url_key})`)];
}
