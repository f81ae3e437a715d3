import { expect } from 'vitest';

/** The error envelope of the public API: `{ success: false, error, code, details? }`. */
export function expectEnvelope(body: string, request: string): void {
  let parsed: unknown;
  expect(() => (parsed = JSON.parse(body)), `${request}: answered ${JSON.stringify(body.slice(0, 200))}`).not.toThrow();
  expect(parsed, request).toMatchObject({ success: false, error: expect.any(String), code: expect.stringMatching(/^[A-Z][A-Z0-9_]+$/) });
}
