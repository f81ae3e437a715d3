// A browser host: the process that owns sessions' Chromiums. It registers itself
// in browser_host, polls a task queue of its own for its sessions' activities,
// serves the CDP relay gateways connect to, and heartbeats. Stopping it ends its
// browsers (their workflows then see the host gone and end the sessions `error`).
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, type NativeConnection, type State } from '@temporalio/worker';
import type { ActivityDeps } from '../../../platform/temporal/activity-deps.ts';
import { requestIdActivityInterceptor } from '../../../platform/temporal/request-id-activity-interceptor.ts';
import { createCrawlNetwork } from '../../../platform/net/outbound-network.ts';
import { AD_HOST_REFUSAL } from '../../../page/ad-block.ts';
import { everyInterval } from '../../../platform/feature.ts';
import { hostTaskQueue } from '../protocol/definitions.ts';
import { createSandbox } from '../sandbox/sandbox.ts';
import { UidPool } from '../sandbox/uid-pool.ts';
import { runsAsRoot } from '../../../platform/browser/chromium-launch.ts';
import { createHostActivities } from './host-activities.ts';
import type { HostedSessions } from './hosted-sessions.ts';
import { heartbeatHost, markHostStopped, registerHost } from '../shared/host-registry.ts';
import { startRelayServer } from './relay-server.ts';
import { claimSessionsDir } from './sessions-dir.ts';
import { createHostExecutor } from './execute-on-host.ts';
import type { BrowserSessionsFeatureSettings } from '../config.ts';
import type { SandboxSettings } from '../sandbox/config.ts';

/** What a browser host reads: the sessions' settings and its sandbox's. */
export type BrowserHostSettings = BrowserSessionsFeatureSettings & { sandbox: SandboxSettings };

const HEARTBEAT_MS = 5000;

export interface BrowserHost {
  hostId: string;
  taskQueue: string;
  relayUrl: string;
  /** A session's browser on this host (its DevTools URL and process), for diagnostics and benchmarks. */
  browserOf(sessionId: string): { cdpUrl: string; pid: number } | undefined;
  /** RUNNING while its Temporal worker polls the host's task queue. */
  workerState(): State;
  /** Runs until stop() is called. */
  run(): Promise<void>;
  stop(): Promise<void>;
}

export async function createBrowserHost(deps: ActivityDeps<BrowserHostSettings> & { connection: NativeConnection }): Promise<BrowserHost> {
  const { db, config, log } = deps;
  const settings = config.browserSessions;
  const hostId = settings.hostId ?? randomUUID();
  const taskQueue = hostTaskQueue(config.temporal.taskQueue, hostId);
  const secret = randomBytes(32).toString('base64url');
  const sessions: HostedSessions = new Map();
  const sessionsDir = claimSessionsDir(tmpdir(), hostId, log);
  const network = createCrawlNetwork(config, log);
  const sandbox = createSandbox(config.sandbox, log);
  // Machine-wide claims, as the sandbox's: hosts on one machine never give two browsers one uid.
  const browserUids = runsAsRoot() ? new UidPool(settings.chromiumUidBase, config.sandbox.maxSessions, join(tmpdir(), 'browser-session-uids')) : undefined;
  const executeOnHost = createHostExecutor({ db, log, sessions, sandbox });
  const relay = await startRelayServer({
    bind: settings.hostBind,
    port: settings.hostPort,
    secret,
    sessions,
    maxMessageBytes: settings.maxCdpMessageBytes,
    executeOnHost,
    log,
  });
  const relayUrl = settings.hostUrl ?? `ws://${settings.hostBind}:${relay.port}`;
  await registerHost(db, { id: hostId, taskQueue, relayUrl, relaySecret: secret });
  const heartbeat = everyInterval('browser host heartbeat', HEARTBEAT_MS, deps, () => heartbeatHost(db, hostId));
  const worker = await Worker.create({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    taskQueue,
    activities: createHostActivities({
      ...deps,
      hostId,
      browserUids,
      sandbox,
      executeOnHost,
      sessions,
      sessionsDir,
      proxyServer: ({ blockAds, proxy }) => network.proxyServer({ proxy, ...(blockAds && { refusedHosts: AD_HOST_REFUSAL }) }),
    }),
    maxConcurrentActivityTaskExecutions: settings.maxSessionsPerHost * 4,
    // A watch never finishes on its own; nothing is worth waiting long for at shutdown.
    shutdownGraceTime: 2000,
    interceptors: { activity: [requestIdActivityInterceptor] },
  });

  let stopped: Promise<void> | undefined;
  return {
    hostId,
    taskQueue,
    relayUrl,
    browserOf(sessionId) {
      const hosted = sessions.get(sessionId);
      return hosted && { cdpUrl: hosted.chromium.cdpUrl, pid: hosted.chromium.pid };
    },
    workerState: () => worker.getState(),
    async run() {
      await worker.run();
    },
    stop() {
      stopped ??= (async () => {
        await markHostStopped(db, hostId).catch(() => undefined);
        await heartbeat.stop();
        if (worker.getState() === 'RUNNING') worker.shutdown();
        for (const hosted of sessions.values()) {
          hosted.closing = true;
          await sandbox.endSession(hosted.sessionId, hosted.dir).catch(() => undefined);
          await hosted.chromium.close();
          browserUids?.release(hosted.sessionId);
        }
        sessions.clear();
        await relay.close();
        await network.close();
        rmSync(sessionsDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}
