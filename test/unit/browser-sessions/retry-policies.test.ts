// The session workflow's retries all end: each proxy in workflow.ts takes its
// policy from retry-policies.ts, and every policy there has a finite attempt count
// (0 would mean unlimited to Temporal).
import { readFileSync } from 'node:fs';
import type { RetryPolicy } from '@temporalio/common';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as policies from '../../../src/features/browser-sessions/workflow/retry-policies.ts';
import { READY_TIMEOUT_MS } from '../../../src/features/browser-sessions/gateway/start-session.ts';
import { retryWaitsMs } from '../../support/retry-waits.ts';

const WORKFLOW = new URL('../../../src/features/browser-sessions/workflow/workflow.ts', import.meta.url);
const byName: Record<string, RetryPolicy> = policies;

/** The `retry` value of each proxyActivities / proxyLocalActivities options literal in the workflow, as written. */
function retryOptionsOfProxies(): string[] {
  const source = ts.createSourceFile(WORKFLOW.pathname, readFileSync(WORKFLOW, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && /^proxy(Local)?Activities$/.test(node.expression.text)) {
      const [options] = node.arguments;
      if (!options || !ts.isObjectLiteralExpression(options)) throw new Error(`a proxy without an options literal: ${node.getText()}`);
      const retry = options.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'retry');
      found.push(retry && ts.isPropertyAssignment(retry) ? retry.initializer.getText() : '(none)');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('browser session retry policies', () => {
  it('are what every activity proxy of the workflow uses', () => {
    const used = retryOptionsOfProxies();
    expect(used.length).toBeGreaterThanOrEqual(5);
    for (const name of used) expect(Object.keys(byName), `retry: ${name}`).toContain(name);
  });

  it.each(Object.entries(byName))('%s has a finite number of attempts', (_, policy) => {
    expect(Number.isInteger(policy.maximumAttempts)).toBe(true);
    expect(policy.maximumAttempts).toBeGreaterThanOrEqual(1);
  });

  it('runs a host activity once', () => {
    expect(policies.HOST_ONCE.maximumAttempts).toBe(1);
  });

  it('gives up on the control activities within the wait of POST /v2/browser, after retrying for a while', () => {
    const { SESSION_CONTROL_RETRY } = policies;
    expect(SESSION_CONTROL_RETRY.maximumInterval).toBeDefined();
    const total = retryWaitsMs(SESSION_CONTROL_RETRY).reduce((a, b) => a + b, 0);
    expect(total).toBe(65_000);
    expect(total).toBeLessThan(READY_TIMEOUT_MS);
    expect(SESSION_CONTROL_RETRY.nonRetryableErrorTypes).toEqual(['NoBrowserHost']);
  });
});
