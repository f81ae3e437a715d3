// Launching a session on this host: its directory, its profile's saved state, a
// Chromium of its own (under a uid of its own when the host is root) behind the
// guard proxy, then its first page, a warm sandbox runner, and its row marked
// active. A launch asked for again while it runs joins the one under way.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { locationSettings } from '../../../page/location.ts';
import type { ScrapeLocation } from '../../../page/scrape-options.ts';
import { eventually } from '../../../platform/retry-in-background.ts';
import { heartbeatWhile } from '../../../platform/temporal/heartbeat-while.ts';
import type { PageOpening, ProxyMode, SessionProfile } from '../protocol/definitions.ts';
import type { HostActivityDeps } from './host-activity-deps.ts';
import type { HostedSession } from './hosted-sessions.ts';
import { openScrapedPage } from './open-scraped-page.ts';
import { writeCookies } from './profile-state.ts';
import { launchSessionChromium, type SessionChromium } from './session-chromium.ts';
import { restoreProfileFiles } from './session-profile.ts';

export interface LaunchInput {
  sessionId: string;
  teamId: string;
  profile?: SessionProfile;
  /** Absent from workflows started before it existed: not blocked, as then. */
  blockAds?: boolean;
  location?: ScrapeLocation;
  proxy?: ProxyMode;
}

/** Launches under way, by session id. */
export type StartingSessions = Map<string, Promise<HostedSession>>;

/** How often the watch and a launch heartbeat (the workflow gives both a 15 s heartbeat timeout). */
export const HEARTBEAT_INTERVAL_MS = 2000;
/** A launched session's row is marked active again this often while the database does not take it, for this long. */
const ACTIVE_RETRY_MS = 500;
const ACTIVE_RETRY_FOR_MS = 30_000;

/** The launched session's row says it is up on this host. A dropped connection must not cost the session its browser: the write is made again while the database is away. */
async function markActive(db: HostActivityDeps['db'], sessionId: string, hostId: string): Promise<void> {
  const write = () => db.browserSession.update({ where: { id: sessionId }, data: { status: 'active', hostId } });
  if (!(await eventually(write, { everyMs: ACTIVE_RETRY_MS, forMs: ACTIVE_RETRY_FOR_MS }))) await write();
}

/** The session's browser, launched, with its profile's state restored, and known to the host's sessions. */
async function launch(deps: HostActivityDeps, input: LaunchInput): Promise<HostedSession> {
  const { sessionId, teamId, profile } = input;
  const dir = join(deps.sessionsDir, sessionId);
  mkdirSync(dir, { recursive: true });
  const restored = profile && (await restoreProfileFiles(deps, teamId, profile, join(dir, 'profile')));
  const uid = deps.browserUids?.acquire(sessionId);
  const settings = uid === undefined ? deps.config.chromium : { ...deps.config.chromium, user: `${uid}:${uid}` };
  let chromium: SessionChromium;
  try {
    chromium = await launchSessionChromium({
      settings,
      dir,
      proxyServer: await deps.proxyServer({
        blockAds: input.blockAds ?? false,
        proxy: { mode: input.proxy ?? 'basic', ...(input.location && { country: input.location.country }) },
      }),
      ...(input.location && { location: locationSettings(input.location) }),
    });
  } catch (err) {
    deps.browserUids?.release(sessionId);
    throw err;
  }
  if (restored) await writeCookies(chromium.cdpUrl, restored.cookies);
  const hosted: HostedSession = { sessionId, teamId, dir, chromium, profile };
  deps.sessions.set(sessionId, hosted);
  void chromium.exited.then((why) => deps.log.info('session browser exited', { sessionId, why }));
  return hosted;
}

/** Returns why an opening's page did not open as its scrape saw it, if it did not. */
export async function launchBrowserSession(
  deps: HostActivityDeps,
  starting: StartingSessions,
  input: LaunchInput & { opening?: PageOpening },
): Promise<{ openingWarning?: string } | void> {
  const { log, sessions, sandbox } = deps;
  // Heartbeats: a host killed while it launches fails the launch within the heartbeat timeout, not its 90 s.
  return heartbeatWhile(HEARTBEAT_INTERVAL_MS, async () => {
    const { sessionId, teamId } = input;
    if (!sessions.has(sessionId)) {
      let pending = starting.get(sessionId);
      if (!pending) {
        pending = launch(deps, input).finally(() => starting.delete(sessionId));
        starting.set(sessionId, pending);
      }
      await pending;
    }
    const hosted = sessions.get(sessionId)!;
    const openingWarning = input.opening && (await openScrapedPage(hosted.chromium.cdpUrl, input.opening));
    // Executes start at once when a runner is already attached; a failed warm-up only costs the first execute its start.
    sandbox.warmUp({ sessionId, cdpUrl: hosted.chromium.cdpUrl, sessionDir: hosted.dir }).catch((err: unknown) => {
      log.warn('sandbox warm-up failed', { sessionId, error: (err as Error).message });
    });
    await markActive(deps.db, sessionId, deps.hostId);
    log.info('session launched', { sessionId, teamId, hostId: deps.hostId, ...(openingWarning && { openingWarning }) });
    return openingWarning ? { openingWarning } : {};
  });
}
