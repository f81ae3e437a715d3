// A feature that calls another's tool gets it typed by the platform's contract: the
// input parsed by the contract's schema (its defaults applied, a bad input refused),
// and only a tool published under the contract.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractTool, defineContractTool, defineTool, toolRegistry, type ToolContext } from '../../../src/platform/tools/tool.ts';
import { searchToolInput } from '../../../src/platform/tools/search-contract.ts';

const ctx: ToolContext = {
  teamId: 'team',
  apiKeyId: 'key',
  zeroDataRetention: false,
  callId: '00000000-0000-4000-8000-000000000000',
  signal: new AbortController().signal,
  heartbeat: () => {},
};

function recordingSearch(seen: unknown[]) {
  return defineContractTool({
    name: 'search',
    description: 'Searches a fixed list',
    input: searchToolInput,
    run: async (input) => {
      seen.push(input);
      return { output: { results: [{ url: 'https://site.test/a', title: 'A' }] }, credits: 2 };
    },
  });
}

describe('contractTool', () => {
  it("runs the published tool with the input its contract's schema parsed", async () => {
    const seen: unknown[] = [];
    const search = contractTool(toolRegistry([recordingSearch(seen)]), 'search');
    const answer = await search.run({ query: '  prices  ' }, ctx);
    expect(seen).toEqual([{ query: 'prices', limit: 5 }]);
    expect(answer).toEqual({ output: { results: [{ url: 'https://site.test/a', title: 'A' }] }, credits: 2 });
  });

  it('refuses an input the contract does not take before the tool runs', async () => {
    const seen: unknown[] = [];
    const search = contractTool(toolRegistry([recordingSearch(seen)]), 'search');
    await expect(search.run({ query: '' }, ctx)).rejects.toBeInstanceOf(z.ZodError);
    await expect(search.run({ query: 'x', limit: 101 }, ctx)).rejects.toBeInstanceOf(z.ZodError);
    expect(seen).toEqual([]);
  });

  it('finds no tool when none is published, or one is published under the name without the contract', () => {
    expect(() => contractTool(toolRegistry([]), 'search')).toThrow('no search tool is published under its contract');
    const untyped = defineTool({ name: 'search', description: 'x', input: z.object({}), run: async () => ({ output: 'any', credits: 0 }) });
    expect(() => contractTool(toolRegistry([untyped]), 'search')).toThrow('no search tool is published under its contract');
  });
});
