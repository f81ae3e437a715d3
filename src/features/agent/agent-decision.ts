// What a model's step does to an agent run: an answer ends it, a tool call is run
// next; a model error ends it when retrying cannot help. Pure.
import type { LlmError } from '../../platform/llm/chat-completion.ts';
import type { AgentMode } from './agent-request.ts';
import type { EndFields } from './agent-row.ts';

/** The model's answer to a step (decisionSchema): a tool to call with its input, or the run's answer. */
export type Decision = { thought: string; action: { tool: string; input: Record<string, unknown> } | { finish: unknown } };

/**
 * An endpoint that failed (no answer, an HTTP error) may answer the next attempt; an answer that could
 * not be used after the model's retry (not the schema, nested too deep) will not be usable next time either.
 */
export function unusableAnswer(err: LlmError): boolean {
  return err.status === undefined && /after one retry|nested more than/.test(err.message);
}

/** The run's answer: a chat-mode run answers text in message, an extract-mode run JSON in data. */
export function finishFields(mode: AgentMode | undefined, finish: unknown): EndFields {
  return mode === 'chat' ? { message: String(finish ?? ''), data: null } : { data: finish ?? null };
}
