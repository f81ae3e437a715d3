// An execute as the sandbox runs it, and what it ends with.
import type { ExecuteLanguage } from '../protocol/execute-limits.ts';

export interface ExecuteRun {
  sessionId: string;
  language: ExecuteLanguage;
  code: string;
  timeoutMs: number;
  /** The session's browser-level DevTools URL as the host reaches it (ws://127.0.0.1:PORT/devtools/browser/ID). */
  cdpUrl: string;
  /** A host directory private to this session, alive until the session ends. */
  sessionDir: string;
}

export interface ExecuteOutcome {
  stdout: string;
  stderr: string;
  /** The last expression's value as text (node, python); otherwise stdout, as the spec's alias; null when both are empty. */
  result: string | null;
  /** The uncaught exception the code ended with ("TimeoutError: …"), as the runner described it. */
  error: string | null;
  exitCode: number;
  killed: boolean;
}

/** Which session, and where its browser and directory are. */
export type SessionRef = Pick<ExecuteRun, 'sessionId' | 'cdpUrl' | 'sessionDir'>;
