import { describe, expect, it } from 'vitest';
import { executeResponse } from '../../../src/features/browser-sessions/sandbox/execute-answer.ts';
import type { ExecuteOutcome } from '../../../src/features/browser-sessions/sandbox/sandbox.ts';

const ok: ExecuteOutcome = { stdout: 'hi\n', stderr: '', result: '2', error: null, exitCode: 0, killed: false };

describe('executeResponse', () => {
  it('answers a clean run with success, its output and no error', () => {
    expect(executeResponse(ok)).toEqual({ success: true, stdout: 'hi\n', result: '2', stderr: '', exitCode: 0, killed: false, error: null });
  });

  it('keeps success true for a failed run and names the exception it ended with', () => {
    const body = executeResponse({ ...ok, exitCode: 1, stderr: 'TimeoutError: x\n    at y', error: 'TimeoutError: page.click: Timeout 5000ms exceeded.' });
    expect(body).toMatchObject({ success: true, exitCode: 1, killed: false, error: 'TimeoutError: page.click: Timeout 5000ms exceeded.' });
  });

  it('falls back to stderr, then to "Execution failed", when the code exited non-zero without an exception', () => {
    expect(executeResponse({ ...ok, exitCode: 3, stderr: '  no such file\n' }).error).toBe('no such file');
    expect(executeResponse({ ...ok, exitCode: 3 }).error).toBe('Execution failed');
  });

  it('sets killed and error when the timeout ended the run', () => {
    const body = executeResponse({ ...ok, exitCode: 137, killed: true, error: null });
    expect(body).toMatchObject({ success: true, killed: true, exitCode: 137 });
    expect(body.error).toMatch(/timed out/);
  });

  it('sets no error for exit code 0 even with stderr output', () => {
    expect(executeResponse({ ...ok, stderr: 'a warning' }).error).toBeNull();
  });
});
