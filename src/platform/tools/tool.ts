// A capability one feature publishes for others to call from their activities
// (the agent's search, scrape and map): features never import each other, so
// a feature names its tools in Feature.tools, the worker gathers them into one
// registry (activities/index.ts) and hands that to every activity factory. A
// tool runs inside the caller's activity and goes the way its own endpoint goes:
// the team's slots, its credits on the usage ledger, the address guard.
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { JsonSchema } from '../llm/json-schema.ts';
import type { ActivityDeps } from '../temporal/activity-deps.ts';
import type { SearchToolOutput, searchToolInput } from './search-contract.ts';

/** Who a tool runs for, and the activity it runs in. */
export interface ToolContext {
  teamId: string;
  /** The API key that started the caller's job: the tool's charges are booked on it. */
  apiKeyId: string;
  /** The caller's job keeps no page content: a tool that stores pages stores them as zero data retention. */
  zeroDataRetention: boolean;
  /**
   * Where the caller's job is from: a tool that reads pages reads them as a browser there would (as a
   * scrape's `location`), one that searches prefers that country's and language's results (as a
   * search's `country` and `lang`). Absent: the tool's own defaults.
   */
  location?: { country: string; languages?: string[] };
  /**
   * Names this call (a UUID): a caller that runs the same call again (its activity retried after a
   * crash, a timeout or a redeploy) passes the same one, and a tool that makes a job or a charge
   * gives them this id, so the second run finds the first's instead of charging the team twice.
   */
  callId: string;
  /** Aborted when the calling activity is cancelled. */
  signal: AbortSignal;
  heartbeat(detail?: string): void;
}

export interface ToolResult {
  /** What the caller (a model) reads: JSON-serializable and small. */
  output: unknown;
  /** Credits the run charged the team through the usage ledger. */
  credits: number;
}

/**
 * The names of the tools features publish, declared once: a misspelt name fails to compile. A
 * feature that publishes a new tool adds its name here.
 */
export type ToolName = 'search' | 'scrape' | 'map' | 'browser_execute';

export interface Tool<Input extends z.ZodType = z.ZodType> {
  name: ToolName;
  /** What the tool does, for a model choosing among tools. */
  description: string;
  /** Validates the input; its JSON schema tells a model the input's shape. */
  input: Input;
  /** The URLs an input would make the tool read, so a caller can hold them to its own list. */
  urlsOf?(input: z.output<Input>): string[];
  /** Throws DomainError for a refusal (an address the guard blocks, no credits); any other error is a failure. */
  run(input: z.output<Input>, ctx: ToolContext): Promise<ToolResult>;
}

/** What a feature's tools are built from: an activity's deps and a Temporal client, for tools that run a job. */
export interface ToolDeps<C = unknown> extends ActivityDeps<C> {
  temporal: Client;
}

export type ToolRegistry = ReadonlyMap<ToolName, Tool>;

/** A tool of any input type: run and urlsOf take what `input` parsed. */
export function defineTool<Input extends z.ZodType>(tool: Tool<Input>): Tool {
  return tool as unknown as Tool;
}

export function toolRegistry(tools: Tool[]): ToolRegistry {
  const registry = new Map<ToolName, Tool>();
  for (const tool of tools) {
    if (registry.has(tool.name)) throw new Error(`tool ${tool.name} is published twice`);
    registry.set(tool.name, tool);
  }
  return registry;
}

/**
 * The tools another feature calls by name, with their input schema and output type (the agent
 * calls every tool as a model does, untyped): declared in the platform, so caller and publisher
 * agree on a type instead of on a string and a cast.
 */
export interface ToolContracts {
  search: { input: typeof searchToolInput; output: SearchToolOutput };
}
export type ContractName = keyof ToolContracts;

/** A tool as its contract types it: `run` takes the unparsed input and parses it with the tool's schema (a ZodError for a bad one). */
export interface ContractTool<N extends ContractName> {
  name: N;
  run(input: z.input<ToolContracts[N]['input']>, ctx: ToolContext): Promise<{ output: ToolContracts[N]['output']; credits: number }>;
}

// The tools built by defineContractTool: contractTool hands out only those, so a tool published
// under a contract's name without its types is found at the worker's first call, not by a cast.
const contractTools = new WeakSet<Tool>();

/** A tool that keeps its contract: its input is the contract's schema and its output the contract's type. */
export function defineContractTool<N extends ContractName>(
  tool: Omit<Tool<ToolContracts[N]['input']>, 'name' | 'run'> & {
    name: N;
    run(input: z.output<ToolContracts[N]['input']>, ctx: ToolContext): Promise<{ output: ToolContracts[N]['output']; credits: number }>;
  },
): Tool {
  const defined = defineTool(tool);
  contractTools.add(defined);
  return defined;
}

/** The registry's tool of a contract, typed by it; throws when no feature published it under its contract. */
export function contractTool<N extends ContractName>(tools: ToolRegistry, name: N): ContractTool<N> {
  const tool = tools.get(name);
  if (!tool || !contractTools.has(tool)) throw new Error(`no ${name} tool is published under its contract (the feature that publishes it is not registered)`);
  return {
    name,
    run: async (input, ctx) => tool.run(tool.input.parse(input), ctx) as Promise<{ output: ToolContracts[N]['output']; credits: number }>,
  };
}

/** The tool's input as a JSON schema, for a model's instructions. */
export function toolInputSchema(tool: Tool): JsonSchema {
  const { $schema: _dropped, ...schema } = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return schema;
}
