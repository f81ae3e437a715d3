import { describe, expect, it } from 'vitest';
import { executeRequestSchema } from '../../../src/features/browser-sessions/protocol/execute-request.ts';

function issues(body: unknown): string[] {
  const parsed = executeRequestSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('executeRequestSchema', () => {
  it('defaults language to node and timeout to 30 s, and accepts origin', () => {
    expect(executeRequestSchema.parse({ code: '1', origin: 'js-sdk@4.42.0' })).toEqual({ code: '1', language: 'node', timeout: 30, origin: 'js-sdk@4.42.0' });
  });

  it('takes code of 1 to 100000 characters', () => {
    expect(issues({ code: '' })).toEqual(['code: code must not be empty']);
    expect(issues({ code: 'x'.repeat(100_000) })).toEqual([]);
    expect(issues({ code: 'x'.repeat(100_001) })).toEqual(['code: code must be at most 100000 characters']);
    expect(issues({})).toEqual(['code: code must be a string']);
  });

  it('takes the three languages only', () => {
    for (const language of ['node', 'python', 'bash']) expect(issues({ code: '1', language })).toEqual([]);
    expect(issues({ code: '1', language: 'ruby' })).toEqual(['language: language must be one of node, python, bash']);
  });

  it('takes a timeout of 1 to 300 whole seconds', () => {
    expect(issues({ code: '1', timeout: 1 })).toEqual([]);
    expect(issues({ code: '1', timeout: 300 })).toEqual([]);
    expect(issues({ code: '1', timeout: 0 })).toEqual(['timeout: timeout must be at least 1 second']);
    expect(issues({ code: '1', timeout: 301 })).toEqual(['timeout: timeout must be at most 300 seconds']);
    expect(issues({ code: '1', timeout: 1.5 })).toEqual(['timeout: timeout must be an integer number of seconds']);
  });

  it('rejects unknown keys', () => {
    expect(issues({ code: '1', sessionId: 'x' })).toHaveLength(1);
  });
});
