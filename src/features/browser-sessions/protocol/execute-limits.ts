// What every side of an execute agrees on: its languages, how much code it carries, how long it
// may run and how long past that its answer may take. The public API takes the timeout in
// seconds (`timeout`); every message past the API carries it in milliseconds (`timeoutMs`).
// Imports nothing: workflow code reads this file too.

export const EXECUTE_LANGUAGES = ['node', 'python', 'bash'] as const;
export type ExecuteLanguage = (typeof EXECUTE_LANGUAGES)[number];

export const MAX_EXECUTE_CODE_LENGTH = 100_000;
export const MAX_EXECUTE_TIMEOUT_SECONDS = 300;
export const MAX_EXECUTE_TIMEOUT_MS = MAX_EXECUTE_TIMEOUT_SECONDS * 1000;
/** Upstream's default when the body names no timeout. */
export const DEFAULT_EXECUTE_TIMEOUT_SECONDS = 30;

/** How long past the code's timeout the host has to answer (the sandbox kills the code at its timeout; the rest is the answer's way back). */
export const EXECUTE_ANSWER_GRACE_MS = 60_000;
