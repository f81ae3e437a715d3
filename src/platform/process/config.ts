// The processes' sections of the settings (src/config.ts composes them all):
// where the embedded servers keep their data, and the operations ports.
import { resolve } from 'node:path';
import { nonNegativeInt, str } from '../config/env.ts';

export function dataDirConfig(): string {
  return resolve(str('DATA_DIR') ?? '.data');
}

/**
 * The operations ports of the worker, the browser host and the gateway (GET /live, GET /ready,
 * GET /metrics); 0: none.
 * Off by default so several processes on one machine never collide; npm start gives its
 * children free ports unless these are set, docker compose sets them.
 */
export function opsConfig() {
  return {
    bind: str('OPS_BIND_ADDRESS') ?? '127.0.0.1',
    workerPort: nonNegativeInt('WORKER_OPS_PORT', 0),
    browserHostPort: nonNegativeInt('BROWSER_HOST_OPS_PORT', 0),
    gatewayPort: nonNegativeInt('GATEWAY_OPS_PORT', 0),
  };
}

export type OpsSettings = ReturnType<typeof opsConfig>;
