// What the browser host's activities are given (host-activities.ts).
import type { ActivityDeps } from '../../../platform/temporal/activity-deps.ts';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { UidPool } from '../sandbox/uid-pool.ts';
import type { HostExecute } from './execute-on-host.ts';
import type { HostedSessions } from './hosted-sessions.ts';
import type { ProxyRoute } from '../../../platform/net/proxy-pools/proxy-router.ts';
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
  proxyServer(opts: { blockAds: boolean; proxy: ProxyRoute }): Promise<string>;
}
