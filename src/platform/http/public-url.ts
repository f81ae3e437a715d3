import type { GatewaySettings } from './config.ts';

/**
 * Absolute base for links we hand out: PUBLIC_BASE_URL (default: the address `npm start` prints).
 * Never the request's Host or X-Forwarded-Host: a client could otherwise have the API hand its
 * own users links to a host of the client's choosing.
 */
export function publicBase(config: { gateway: Pick<GatewaySettings, 'publicBaseUrl'> }): string {
  return config.gateway.publicBaseUrl.replace(/\/+$/, '');
}

/** The page that shows a browser session live, opened by one of its view tokens (browser sessions, the agent's trace). */
export function browserLiveViewUrl(base: string, sessionId: string, token: string): string {
  return `${base}/v2/browser/${sessionId}/live?token=${token}`;
}
