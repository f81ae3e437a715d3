// Browser sessions as a tool for other features (the agent): a short-lived session
// started as POST /v2/browser starts one (the team's session admission, the guard
// proxy in front of its Chromium, its credits when it ends), one node execute
// against its page (optionally opened at `url` first), then the session ended.
import { z } from 'zod';
import { httpUrl } from '../../platform/http/common-schemas.ts';
import { defineTool, type Tool, type ToolDeps } from '../../platform/tools/tool.ts';
import { executeInSession } from './execute-in-session.ts';
import { endSession } from './end-session.ts';
import { MAX_EXECUTE_CODE_LENGTH } from './execute/execute-request.ts';
import { createSessionSchema } from './session-request.ts';
import { startSession } from './start-session.ts';

const MAX_TOOL_EXECUTE_SECONDS = 60;

export function browserExecuteTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'browser_execute',
    description:
      'Run JavaScript (Node, Playwright) in a fresh browser: `page` is a Playwright Page, opened at `url` first when given; what the code prints with console.log is the answer.',
    input: z.strictObject({
      url: httpUrl.optional(),
      code: z.string().min(1).max(MAX_EXECUTE_CODE_LENGTH),
      timeoutSeconds: z.int().min(1).max(MAX_TOOL_EXECUTE_SECONDS).default(30),
    }),
    urlsOf: (input) => (input.url ? [input.url] : []),
    async run(input, ctx) {
      const team = await deps.db.team.findUniqueOrThrow({ where: { id: ctx.teamId } });
      // Ended by this run; the ttl only bounds a session whose run was cut short.
      const request = createSessionSchema.parse({ ttl: input.timeoutSeconds + 120, activityTtl: input.timeoutSeconds + 60, streamWebView: false });
      const { row: session } = await startSession(deps, team, ctx.apiKeyId, request, () => {});
      try {
        const code = input.url ? `await page.goto(${JSON.stringify(input.url)});\n${input.code}` : input.code;
        const answer = await executeInSession(deps, session, { language: 'node', code, timeoutSeconds: input.timeoutSeconds });
        const ended = await endSession(deps.db, deps.temporal, session);
        return { output: { stdout: answer.stdout, error: answer.error, killed: answer.killed }, credits: ended.creditsBilled };
      } catch (err) {
        await endSession(deps.db, deps.temporal, await deps.db.browserSession.findUniqueOrThrow({ where: { id: session.id } }));
        throw err;
      }
    },
  });
}
