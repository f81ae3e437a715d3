// Browser sessions' section of the settings (src/config.ts composes them all).
import { boundedInt, int, MB, positiveInt, str } from '../../platform/config/env.ts';
import type { JobSettings } from '../../jobs/config.ts';

export function browserSessionsConfig() {
  return {
    /** This host's id (its task queue is <TEMPORAL_TASK_QUEUE>-host-<id>); unset: a new random id each start. */
    hostId: str('BROWSER_HOST_ID'),
    /** Where the host's CDP relay listens; gateways connect to it with the host's secret. */
    hostBind: str('BROWSER_HOST_BIND') ?? '127.0.0.1',
    /** 0: an ephemeral port. */
    hostPort: int('BROWSER_HOST_PORT', 0),
    /** How gateways reach the relay (ws://host:port), recorded in browser_host; unset: ws://BIND:PORT. */
    hostUrl: str('BROWSER_HOST_URL'),
    /** Sessions one host runs at once; beyond it new sessions go to another host or are refused (503). */
    maxSessionsPerHost: positiveInt('BROWSER_HOST_MAX_SESSIONS', 20),
    /** A host whose heartbeat is older than this gets no new sessions. */
    hostStaleMs: positiveInt('BROWSER_HOST_STALE_MS', 15_000),
    /** At most one idle-timer touch per session and gateway per this interval (and a third of activityTtl at most). */
    touchIntervalMs: positiveInt('BROWSER_TOUCH_INTERVAL_MS', 15_000),
    /**
     * When the host is root, each session's Chromium runs as a uid of its own from this range (instead of
     * CHROMIUM_USER), apart from other sessions' browsers and from their executes' uids (SANDBOX_UID_BASE).
     */
    chromiumUidBase: boundedInt('BROWSER_CHROMIUM_UID_BASE', 2_100_000_000, 1000, 4_000_000_000, 'a uid range below 2^32 that no account uses'),
    /** Largest saved profile (gzipped storage folders and cookies); a bigger one is not saved and the old state is kept. */
    profileMaxBytes: positiveInt('BROWSER_PROFILE_MAX_BYTES', 50 * MB),
    /** How long a saving session's browser may take to close cleanly (its storage flushed) before it is killed unsaved. */
    profileCloseTimeoutMs: positiveInt('BROWSER_PROFILE_CLOSE_TIMEOUT_MS', 10_000),
    /** Largest CDP message the proxy and relay pass (screenshots are large). */
    maxCdpMessageBytes: positiveInt('BROWSER_CDP_MAX_MESSAGE_BYTES', 128 * MB),
    /** History events after which a session's workflow continues as new (the same session, a fresh history). */
    historyEvents: boundedInt('BROWSER_SESSION_HISTORY_EVENTS', 5000, 100, 40_000, 'events from 100 to 40000'),
    /** Lifetime of the session POST /v2/scrape/{id}/interact opens on the scrape's page. */
    interactTtlSeconds: boundedInt('INTERACT_TTL_SECONDS', 600, 30, 3600, 'seconds from 30 to 3600'),
    /** Seconds without a call before that session ends. */
    interactActivityTtlSeconds: boundedInt('INTERACT_ACTIVITY_TTL_SECONDS', 300, 10, 3600, 'seconds from 10 to 3600'),
  };
}

export type BrowserSessionSettings = ReturnType<typeof browserSessionsConfig>;

/** What every process of a session reads: the section, and the job engine's (interact runs on a scrape's page). */
export type BrowserSessionsFeatureSettings = JobSettings & { browserSessions: BrowserSessionSettings };
