// The three children `npm start` supervises (worker, browser host, gateway) and the
// ops ports they serve /ready and /metrics on.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config.ts';
import { freePort } from '../../platform/process/ports.ts';

/** Where this machine reaches a listener bound to `host` (any-address binds are reached on loopback). */
export const localUrl = (host: string, port: number) =>
  `http://${['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`;

export interface OpsPorts {
  worker: number;
  browserHost: number;
  gateway: number;
}

export interface Supervised {
  name: string;
  /** The entry point's file. */
  script: string;
  /** Answers 200 once the child serves (its /ready or the gateway's /health/ready). */
  readyUrl: string;
  child?: ChildProcess;
  /** When it was restarted, within the last minute. */
  restarts: number[];
}

/** The configured ops ports, else free ones. */
export async function pickOpsPorts(config: Config): Promise<OpsPorts> {
  // Not a port another setting names: those servers may not be listening yet.
  const named = [
    config.database.embeddedPort,
    config.temporal.devPort,
    config.temporal.devUiPort,
    config.temporal.devHttpPort,
    config.temporal.devMetricsPort,
    config.gateway.port,
    config.ops.workerPort,
    config.ops.browserHostPort,
    config.ops.gatewayPort,
  ].filter((port): port is number => typeof port === 'number' && port > 0);
  const worker = config.ops.workerPort || (await freePort(named));
  const browserHost = config.ops.browserHostPort || (await freePort([...named, worker]));
  const gateway = config.ops.gatewayPort || (await freePort([...named, worker, browserHost]));
  return { worker, browserHost, gateway };
}

const entry = (file: string) => fileURLToPath(new URL(`../${file}`, import.meta.url));

export function supervisedChildren(config: Config, ports: OpsPorts): Supervised[] {
  const opsUrl = (port: number) => localUrl(config.ops.bind, port);
  return [
    { name: 'worker', script: entry('worker.ts'), readyUrl: `${opsUrl(ports.worker)}/ready`, restarts: [] },
    { name: 'browser-host', script: entry('browser-host.ts'), readyUrl: `${opsUrl(ports.browserHost)}/ready`, restarts: [] },
    { name: 'gateway', script: entry('gateway.ts'), readyUrl: `${localUrl(config.gateway.host, config.gateway.port)}/health/ready`, restarts: [] },
  ];
}

/** Each child's /metrics, for the banner. */
export const metricsUrl = (config: Config, port: number) => `${localUrl(config.ops.bind, port)}/metrics`;
