import type { Config } from '../config.ts';

/**
 * Absolute base for links we hand out: PUBLIC_BASE_URL (default: the address `npm start` prints).
 * Never the request's Host or X-Forwarded-Host: a client could otherwise have the API hand its
 * own users links to a host of the client's choosing.
 */
export function publicBase(config: Config): string {
  return config.gateway.publicBaseUrl.replace(/\/+$/, '');
}
