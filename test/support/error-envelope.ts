import { expect } from 'vitest';

/** The error envelope of the public API: `{ success: false, error, code, details? }`. */
export function expectEnvelope(body: string, request: string): void {
  let parsed: unknown;
  expect(() => (parsed = JSON.parse(body)), `${request}: answered ${JSON.stringify(body.slice(0, 200))}`).not.toThrow();
  expect(parsed, request).toMatchObject({ success: false, error: expect.any(String), code: expect.stringMatching(/^[A-Z][A-Z0-9_]+$/) });
}

/**
 * A valid request for a Firecrawl cloud service is refused 501 CLOUD_SERVICE_NOT_OFFERED by
 * design (docs/api/cloud-services.md); every other answer of a generated request is below 500.
 */
export function expectNoServerError(answer: { status: number; body: string }, request: string): void {
  if (answer.status === 501) {
    expect(JSON.parse(answer.body), request).toMatchObject({ code: 'CLOUD_SERVICE_NOT_OFFERED' });
    return;
  }
  expect(answer.status, request).toBeLessThan(500);
}
