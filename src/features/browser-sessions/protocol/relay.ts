// A browser host's relay as gateways reach it: the paths of its doors (a session's CDP, its live
// view, its executes), the header that carries the host's secret, and what a refused execute
// answers. The relay server (host/relay-server.ts) serves these; the gateway's CDP proxy, live
// view and relay client call them.
import { MAX_EXECUTE_CODE_LENGTH } from './execute-limits.ts';

export const RELAY_SECRET_HEADER = 'x-relay-secret';

/** The relay's routes, as the server matches them. */
export const RELAY_ROUTES = { cdp: '/cdp/:sessionId', live: '/live/:sessionId', execute: '/execute/:sessionId' } as const;

export const relayCdpPath = (sessionId: string) => `/cdp/${sessionId}`;
/** interactive: the gateway checked the viewer's token and says which kind it was. */
export const relayLivePath = (sessionId: string, interactive: boolean) => `/live/${sessionId}?interactive=${interactive ? 1 : 0}`;
export const relayExecutePath = (sessionId: string) => `/execute/${encodeURIComponent(sessionId)}`;

/** What a refused execute answers: `code` SESSION_DESTROYED when the session is not (or no longer) on the host. */
export interface RelayExecuteRefusal {
  error: string;
  code: 'SESSION_DESTROYED' | 'BAD_REQUEST' | 'EXECUTE_FAILED' | 'TOO_LARGE';
}

/** The largest execute body: the longest code, every character escaped in JSON (\uXXXX), and the rest. */
export const MAX_RELAY_EXECUTE_BODY_BYTES = MAX_EXECUTE_CODE_LENGTH * 6 + 4096;
