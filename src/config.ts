// Every setting of the service, read once at start from the environment. Each section is read by a
// function beside the code it configures (a `config.ts` in its folder; the readers, the only code
// that reads the environment for a setting, are platform/config/env.ts); this module only puts
// them together. It lives above the features so it may call theirs: entry points load the whole
// `Config`, and every other module names only the sections it reads.
import { agentConfig } from './features/agent/config.ts';
import { browserSessionsConfig } from './features/browser-sessions/config.ts';
import { sandboxConfig } from './features/browser-sessions/sandbox/config.ts';
import { extractConfig } from './features/extract/config.ts';
import { mapConfig } from './features/map/config.ts';
import { monitorsConfig } from './features/monitors/config.ts';
import { parseConfig } from './features/parse/config.ts';
import { searchConfig } from './features/search/config.ts';
import { crawlConfig, scrapeConfig } from './jobs/config.ts';
import { webhooksConfig } from './jobs/webhooks/config.ts';
import { ocrConfig } from './page/ocr/config.ts';
import { chromiumConfig } from './platform/browser/config.ts';
import { databaseConfig } from './platform/db/config.ts';
import { activityLogConfig, gatewayConfig, idempotencyConfig } from './platform/http/config.ts';
import { llmConfig } from './platform/llm/config.ts';
import { logLevelConfig } from './platform/log-config.ts';
import { dataDirConfig, opsConfig } from './platform/process/config.ts';
import { defaultTeamConfig } from './platform/teams/config.ts';
import { temporalConfig, workerConfig } from './platform/temporal/config.ts';

/** Throws, naming the variable, on the first setting that is malformed or out of its range. */
export function loadConfig() {
  return {
    dataDir: dataDirConfig(),
    logLevel: logLevelConfig(),
    gateway: gatewayConfig(),
    ops: opsConfig(),
    idempotency: idempotencyConfig(),
    monitors: monitorsConfig(),
    extract: extractConfig(),
    activityLog: activityLogConfig(),
    database: databaseConfig(),
    temporal: temporalConfig(),
    worker: workerConfig(),
    crawl: crawlConfig(),
    scrape: { ...scrapeConfig(), ...mapConfig() },
    webhooks: webhooksConfig(),
    llm: llmConfig(),
    chromium: chromiumConfig(),
    sandbox: sandboxConfig(),
    search: searchConfig(),
    browserSessions: browserSessionsConfig(),
    defaultTeam: defaultTeamConfig(),
    parse: parseConfig(),
    ocr: ocrConfig(),
    agent: agentConfig(),
  };
}

export type Config = ReturnType<typeof loadConfig>;
