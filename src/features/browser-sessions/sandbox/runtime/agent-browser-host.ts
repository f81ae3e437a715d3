// The main process of a session's agent-browser sandbox: the CDP relay, kept
// alive for as long as the session lasts, and the agent-browser daemon it
// starts and attaches to the session's browser. Bash runs, in sandboxes of
// their own, reach that daemon through its socket directory, so element refs
// from `snapshot` in one execute still work in the next.
import { spawn } from 'node:child_process';
import { startCdpRelay } from './cdp-relay.ts';
import { AGENT_BROWSER_BINARY } from './sandbox-paths.ts';

const url = await startCdpRelay(process.env.EXECUTE_CDP_PATH ?? '');
const connect = spawn(AGENT_BROWSER_BINARY, ['connect', url], { stdio: ['ignore', 2, 2] });
connect.on('exit', (code) => {
  if (code !== 0) {
    process.stderr.write(`agent-browser connect exited with ${code}\n`);
    process.exit(1);
  }
  process.stdout.write('ready\n');
});
// The relay must outlive the command that attached the daemon; the host ends this sandbox with the session.
setInterval(() => {}, 2 ** 30);
