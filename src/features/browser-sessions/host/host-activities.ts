// The activities a browser host runs on its own task queue, for the sessions it
// owns: launch a session's Chromium, watch it (the heartbeat that tells the
// workflow the host is alive), run executes in the sandbox, and close it.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ActivityDeps } from '../../../platform/temporal/activity-deps.ts';
import { heartbeatWhile } from '../../../platform/temporal/heartbeat-while.ts';
import { eventually } from '../../../platform/retry-in-background.ts';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { SessionNotOnHost, type HostExecute } from './execute-on-host.ts';
import type { PageOpening, SessionProfile } from '../protocol/definitions.ts';
import type { ScrapeLocation } from '../../../page/scrape-options.ts';
import { locationSettings } from '../../../page/location.ts';
import type { UidPool } from '../sandbox/uid-pool.ts';
import { launchSessionChromium, type SessionChromium } from './session-chromium.ts';
import type { HostedSession, HostedSessions } from './hosted-sessions.ts';
import { openScrapedPage } from './open-scraped-page.ts';
import { loadProfileState, recordSaveError, saveProfileState } from '../shared/profile-store.ts';
import { closeCleanly, packState, readCookies, unpackState, writeCookies, writeStateFiles, type ProfileState } from './profile-state.ts';
import type { BrowserSessionsFeatureSettings } from '../config.ts';

export interface HostActivityDeps extends ActivityDeps<BrowserSessionsFeatureSettings> {
  /** Runs an execute in a hosted session's sandbox (shared with the relay). */
  executeOnHost(input: HostExecute): Promise<ExecuteResponse>;
  hostId: string;
  /** One uid per session's browser when the host is root; undefined: every browser runs as CHROMIUM_USER (or the host's user). */
  browserUids?: UidPool;
  sandbox: Sandbox;
  sessions: HostedSessions;
  /** Where session directories go (one per session, removed at close). */
  sessionsDir: string;
  /** The guard proxy a session's Chromium goes through: with blockAds, the one that also refuses the ad and tracker hosts. */
  proxyServer(opts: { blockAds: boolean }): Promise<string>;
}

interface LaunchInput {
  sessionId: string;
  teamId: string;
  profile?: SessionProfile;
  /** Absent from workflows started before it existed: not blocked, as then. */
  blockAds?: boolean;
  location?: ScrapeLocation;
}

/** How often the watch and a launch heartbeat (the workflow gives both a 15 s heartbeat timeout). */
const HEARTBEAT_INTERVAL_MS = 2000;
/** A launched session's row is marked active again this often while the database does not take it, for this long. */
const ACTIVE_RETRY_MS = 500;
const ACTIVE_RETRY_FOR_MS = 30_000;

function notHere(sessionId: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'SessionNotOnHost', message: `session ${sessionId} is not running on this browser host`, nonRetryable: true });
}

/** The launched session's row says it is up on this host. A dropped connection must not cost the session its browser: the write is made again while the database is away. */
async function markActive(db: ActivityDeps['db'], sessionId: string, hostId: string): Promise<void> {
  const write = () => db.browserSession.update({ where: { id: sessionId }, data: { status: 'active', hostId } });
  if (!(await eventually(write, { everyMs: ACTIVE_RETRY_MS, forMs: ACTIVE_RETRY_FOR_MS }))) await write();
}

export function createHostActivities(deps: HostActivityDeps) {
  const { db, log, sessions, sandbox, executeOnHost } = deps;
  const starting = new Map<string, Promise<HostedSession>>();

  const profiles = deps.config.browserSessions;

  /** The saved state of the session's profile, written into its fresh profile folder; undefined when there is none or it does not read. */
  async function restoreFiles(teamId: string, profile: SessionProfile, profileDir: string): Promise<ProfileState | undefined> {
    const packed = await loadProfileState(db, teamId, profile.name);
    if (!packed) return undefined;
    try {
      const state = unpackState(packed, profiles.profileMaxBytes);
      writeStateFiles(state, profileDir);
      return state;
    } catch (err) {
      log.warn('saved profile state does not read; the session starts without it', { teamId, profile: profile.name, error: (err as Error).message });
      return undefined;
    }
  }

  async function saveProfile(hosted: HostedSession): Promise<void> {
    const { teamId, sessionId, profile } = hosted;
    if (!profile) return;
    try {
      const cookies = await readCookies(hosted.chromium.cdpUrl);
      if (!(await closeCleanly(hosted.chromium.cdpUrl, hosted.chromium.exited, profiles.profileCloseTimeoutMs))) {
        throw new Error(`the browser did not close within ${profiles.profileCloseTimeoutMs} ms, so its storage may be incomplete`);
      }
      const packed = packState(join(hosted.dir, 'profile'), cookies, profiles.profileMaxBytes);
      if (!(await saveProfileState(db, teamId, profile.name, sessionId, packed)))
        log.warn('profile not saved: the session no longer holds it', { sessionId, profile: profile.name });
    } catch (err) {
      const reason = `the profile was not saved: ${(err as Error).message}`;
      log.warn(reason, { sessionId, profile: profile.name });
      await recordSaveError(db, teamId, profile.name, sessionId, reason);
    }
  }

  async function launch(input: LaunchInput): Promise<HostedSession> {
    const { sessionId, teamId, profile } = input;
    const dir = join(deps.sessionsDir, sessionId);
    mkdirSync(dir, { recursive: true });
    const restored = profile && (await restoreFiles(teamId, profile, join(dir, 'profile')));
    const uid = deps.browserUids?.acquire(sessionId);
    const settings = uid === undefined ? deps.config.chromium : { ...deps.config.chromium, user: `${uid}:${uid}` };
    let chromium: SessionChromium;
    try {
      chromium = await launchSessionChromium({
        settings,
        dir,
        proxyServer: await deps.proxyServer({ blockAds: input.blockAds ?? false }),
        ...(input.location && { location: locationSettings(input.location) }),
      });
    } catch (err) {
      deps.browserUids?.release(sessionId);
      throw err;
    }
    if (restored) await writeCookies(chromium.cdpUrl, restored.cookies);
    const hosted: HostedSession = { sessionId, teamId, dir, chromium, profile };
    sessions.set(sessionId, hosted);
    void chromium.exited.then((why) => log.info('session browser exited', { sessionId, why }));
    return hosted;
  }

  return {
    /** Returns why an opening's page did not open as its scrape saw it, if it did not. */
    async launchBrowserSession(input: LaunchInput & { opening?: PageOpening }): Promise<{ openingWarning?: string } | void> {
      // Heartbeats: a host killed while it launches fails the launch within the heartbeat timeout, not its 90 s.
      return heartbeatWhile(HEARTBEAT_INTERVAL_MS, async () => {
        const { sessionId, teamId } = input;
        if (!sessions.has(sessionId)) {
          let pending = starting.get(sessionId);
          if (!pending) {
            pending = launch(input).finally(() => starting.delete(sessionId));
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
        await markActive(db, sessionId, deps.hostId);
        log.info('session launched', { sessionId, teamId, hostId: deps.hostId, ...(openingWarning && { openingWarning }) });
        return openingWarning ? { openingWarning } : {};
      });
    },

    /** Heartbeats while the session's browser lives; returns why it ended if it exits on its own. */
    async watchBrowserSession(input: { sessionId: string }): Promise<string> {
      const hosted = sessions.get(input.sessionId);
      if (!hosted) throw notHere(input.sessionId);
      const ctx = Context.current();
      for (;;) {
        ctx.heartbeat();
        const why = await Promise.race([hosted.chromium.exited, ctx.sleep(HEARTBEAT_INTERVAL_MS).then(() => undefined)]);
        if (why !== undefined) return why;
      }
    },

    /** The execute Update's activity, for gateways of the build before admitExecute (docs/patches.md). */
    async executeInBrowserSession(input: HostExecute): Promise<ExecuteResponse> {
      try {
        return await executeOnHost(input);
      } catch (err) {
        if (err instanceof SessionNotOnHost) throw notHere(input.sessionId);
        throw err;
      }
    },

    async closeBrowserSession(input: { sessionId: string; saveProfile: boolean }): Promise<void> {
      await starting.get(input.sessionId)?.catch(() => undefined);
      const hosted = sessions.get(input.sessionId);
      if (!hosted) return;
      // Executes killed by the close are answered as the session's end, not as their code's.
      hosted.closing = true;
      await sandbox.endSession(input.sessionId, hosted.dir);
      if (input.saveProfile) await saveProfile(hosted);
      await hosted.chromium.close();
      deps.browserUids?.release(input.sessionId);
      sessions.delete(input.sessionId);
      rmSync(hosted.dir, { recursive: true, force: true });
      log.info('session closed', { sessionId: input.sessionId });
    },
  };
}

export type HostActivities = ReturnType<typeof createHostActivities>;
