// Browser sessions as a tool for other features (the agent): a short-lived session
// started as POST /v2/browser starts one (the team's session admission, the guard
// proxy in front of its Chromium, its credits when it ends), one node execute
// against its page (optionally opened at `url` first), then the session ended.
import { z } from 'zod';
import { httpUrl } from '../../../platform/http/common-schemas.ts';
import { defineTool, type Tool, type ToolDeps, type ToolResult } from '../../../platform/tools/tool.ts';
import { createOnce } from '../../../platform/db/prisma.ts';
import type { BrowserSession } from '../../../generated/prisma/client.ts';
import { executeInSession } from './execute-in-session.ts';
import { endSession } from './end-session.ts';
import { MAX_EXECUTE_CODE_LENGTH } from '../protocol/execute-limits.ts';
import { createSessionSchema } from './session-request.ts';
import { startSession } from './start-session.ts';
import type { BrowserSessionsFeatureSettings } from '../config.ts';

const MAX_TOOL_EXECUTE_SECONDS = 60;

/**
 * A repeated call whose session exists: the code may or may not have run there, and its output is
 * lost with the attempt that ran it. The session is ended and billed once; the caller hears why.
 */
async function interrupted(deps: ToolDeps<BrowserSessionsFeatureSettings>, session: BrowserSession): Promise<ToolResult> {
  const ended = await endSession(deps.db, deps.temporal, session);
  return {
    output: { error: 'An earlier attempt of this call was interrupted (a worker restarted) and its output was lost; its browser session has ended.' },
    credits: ended.creditsBilled,
  };
}

export function browserExecuteTool(deps: ToolDeps<BrowserSessionsFeatureSettings>): Tool {
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
      // Ended by this run; the ttl only bounds a session whose run was cut short. Watchable while it
      // runs (the caller's trace hands out its live view); nothing streams until someone watches.
      const request = createSessionSchema.parse({ ttl: input.timeoutSeconds + 120, activityTtl: input.timeoutSeconds + 60, streamWebView: true });
      let session: BrowserSession | undefined;
      const started = await createOnce(
        async () => ({ row: session } = await startSession(deps, team, ctx.apiKeyId, request, () => {}, { id: ctx.callId })),
        () => deps.db.browserSession.findUnique({ where: { id: ctx.callId }, select: { id: true } }),
      );
      if (!started || !session) return interrupted(deps, await deps.db.browserSession.findUniqueOrThrow({ where: { id: ctx.callId } }));
      try {
        const code = input.url ? `await page.goto(${JSON.stringify(input.url)});\n${input.code}` : input.code;
        const answer = await executeInSession(deps, session, { language: 'node', code, timeoutMs: input.timeoutSeconds * 1000 });
        const ended = await endSession(deps.db, deps.temporal, session);
        return { output: { stdout: answer.stdout, error: answer.error, killed: answer.killed }, credits: ended.creditsBilled };
      } catch (err) {
        await endSession(deps.db, deps.temporal, await deps.db.browserSession.findUniqueOrThrow({ where: { id: session.id } }));
        throw err;
      }
    },
  });
}
