import type { Request } from 'express';

/** Absolute base for links we hand out: PUBLIC_BASE_URL, else the host the client used. */
export function publicBase(req: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host')}`;
}
