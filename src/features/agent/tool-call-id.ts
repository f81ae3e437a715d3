// A step's tool call is named by its agent and step: a retried agentAct repeats
// the call under the same id (which its scrape job, map, search charge or browser
// session takes, so it is charged once), and the trace names the call by it.
import { v5 as uuidv5 } from 'uuid';

const TOOL_CALL_NAMESPACE = '24f538bf-71ea-4f14-a62e-fc158e690303';

export function toolCallId(agentId: string, step: number): string {
  return uuidv5(`${agentId}/step/${step}`, TOOL_CALL_NAMESPACE);
}
