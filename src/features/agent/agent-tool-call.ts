// The tool call a model's step names, checked before it runs: the tool exists, its
// input is valid, and the URLs it would read are within the run's URLs (under
// strictConstrainToURLs) and allowed by its threat protection. A call that is not
// is refused with a DomainError, which the model reads as the step's observation. Pure.
import type { Tool } from '../../platform/tools/tool.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { threatPolicy, threatRefusal } from '../../page/threat-policy.ts';
import type { AgentRequest } from './agent-request.ts';
import { allowedUnder } from './url-constraint.ts';

export interface ToolCall {
  tool: Tool;
  /** The input as the tool's schema parsed it. */
  input: unknown;
}

/** The call of tool `name` (the model's text, any name) with `input`, or why it may not run. */
export function checkedToolCall(
  tools: Tool[],
  name: string | null,
  input: unknown,
  req: Pick<AgentRequest, 'strictConstrainToURLs' | 'urls' | 'threatProtection'>,
): ToolCall {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new DomainError('invalid', `there is no tool named ${name}; the tools are ${tools.map((t) => t.name).join(', ')}`);
  const parsed = tool.input.safeParse(input);
  if (!parsed.success)
    throw new DomainError(
      'invalid',
      `the input is not valid for ${tool.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
    );
  const urls = tool.urlsOf?.(parsed.data) ?? [];
  if (req.strictConstrainToURLs && req.urls?.length) {
    const allowed = allowedUnder(req.urls);
    const outside = urls.find((url) => !allowed(url));
    if (outside) throw new DomainError('invalid', `${outside} is outside the URLs this run may read (strictConstrainToURLs)`);
  }
  const threat = threatPolicy(req.threatProtection);
  const refusal = urls.map((url) => threatRefusal(url, threat)).find((reason) => reason !== undefined);
  if (refusal) throw new DomainError('invalid', refusal);
  return { tool, input: parsed.data };
}
