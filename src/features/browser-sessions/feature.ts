// Browser sessions: each session a durable workflow (workflow/workflow.ts) whose
// Chromium runs on a browser host (host/), reached by clients through the gateway's
// CDP proxy (gateway/cdp-proxy.ts), watched in the live view (gateway/live-view/)
// and driven by executes in a sandbox (sandbox/); gateway/interact/ keeps a finished
// scrape's page open in such a session (POST /v2/scrape/{id}/interact). Published as
// the `browser_execute` tool (gateway/browser-execute-tool.ts) for other features'
// activities. One folder per process, protocol/ for what crosses between them
// (docs/architecture.md, "Browser sessions by process").
import { Router } from 'express';
import type { Feature } from '../../platform/feature.ts';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { cdpProxyRoute } from './gateway/cdp-proxy.ts';
import { createSessionControlActivities } from './workflow/control-activities.ts';
import { liveViewPageRoutes, liveViewSocketRoute } from './gateway/live-view/live-view-routes.ts';
import { browserSessionRouteDocs } from './gateway/route-docs.ts';
import { sessionRoutes } from './gateway/routes.ts';
import { interactRoutes } from './gateway/interact/interact-routes.ts';
import { browserExecuteTool } from './gateway/browser-execute-tool.ts';
import { createSessionToucher, type SessionToucher } from './gateway/session-touch.ts';
import type { BrowserSessionsFeatureSettings } from './config.ts';

// One toucher per gateway: its debounce window spans the CDP proxy and the routes.
const touchers = new WeakMap<GatewayDeps<BrowserSessionsFeatureSettings>, SessionToucher>();
function toucherOf(deps: GatewayDeps<BrowserSessionsFeatureSettings>): SessionToucher {
  let toucher = touchers.get(deps);
  if (!toucher) {
    toucher = createSessionToucher(deps, deps.config.browserSessions.touchIntervalMs);
    touchers.set(deps, toucher);
  }
  return toucher;
}

export const browserSessionsFeature: Feature<BrowserSessionsFeatureSettings> = {
  name: 'browser-sessions',
  routes: (deps) => Router().use(sessionRoutes(deps, '/browser'), sessionRoutes(deps, '/interact'), interactRoutes(deps)),
  publicRoutes: liveViewPageRoutes,
  routeDocs: browserSessionRouteDocs,
  websockets: (deps) => [cdpProxyRoute(deps, toucherOf(deps)), liveViewSocketRoute(deps, toucherOf(deps))],
  activities: (deps) => ({ control: createSessionControlActivities(deps) }),
  tools: (deps) => [browserExecuteTool(deps)],
};
