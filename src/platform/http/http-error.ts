/** An error the API answers with its own status, message and code (see errors.ts). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Required: every error answer carries a machine-readable code (docs/api/conventions.md#errors). */
    readonly code: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}
