import type { Request } from 'express';

/**
 * Absolute base for links we hand out: PUBLIC_BASE_URL, else the scheme and host the client used.
 * X-Forwarded-Proto and -Host count only when they come from a proxy GATEWAY_TRUST_PROXY trusts
 * (Express's req.protocol and req.host check that); from anyone else they are ignored.
 */
export function publicBase(req: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  return `${req.protocol}://${req.host}`;
}
