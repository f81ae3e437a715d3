// One live viewer, served on the browser host: a CDP connection of its own to the
// session's browser streams the shown tab (Page.startScreencast); each frame is
// acknowledged at once so Chromium keeps sending, and a viewer that reads slower
// than frames come gets only the newest one (never a queue). The tab list follows
// the browser's targets; the viewer may switch tabs. Interactive viewers' mouse,
// wheel and keyboard input is dispatched to the shown tab; view-only viewers'
// input is dropped. Closing the viewer detaches from the tab and nothing else.
import type { WebSocket } from 'ws';
import type { Logger } from '../../../platform/log.ts';
import { CdpConnection } from '../../../platform/browser/cdp-connection.ts';
import { viewerMessageSchema, type ViewerMessage } from '../protocol/live-view-protocol.ts';
import { inputCommand, MessageRate } from './live-view-input.ts';
import { LiveViewScreen } from './live-view-screen.ts';

export interface LiveViewOptions {
  interactive: boolean;
  /** Each accepted input (the caller re-arms the session's idle timer). */
  onInput?: () => void;
  log: Logger;
  /** A viewer with this much unsent data gets no new frame until it drains. */
  maxBufferedBytes?: number;
  /** Viewer messages per second beyond which the viewer is disconnected. */
  maxMessagesPerSecond?: number;
}

/** What a viewer's message does: a switch shows another tab; an interactive viewer's input goes to the shown tab. */
function dispatch(screen: LiveViewScreen, cdp: CdpConnection, message: ViewerMessage, opts: LiveViewOptions): Promise<unknown> | undefined {
  if (message.type === 'switch') return screen.showSerially(message.targetId);
  if (!opts.interactive || !screen.current) return undefined;
  opts.onInput?.();
  const { method, params } = inputCommand(message);
  return cdp.send(method, params, screen.current.sessionId);
}

export async function serveLiveView(client: WebSocket, cdpUrl: string, opts: LiveViewOptions): Promise<void> {
  const cdp = await CdpConnection.open(cdpUrl);
  const screen = new LiveViewScreen(cdp, client, opts.maxBufferedBytes ?? 2 * 1024 * 1024, opts.log);
  cdp.on((event) => screen.onEvent(event));

  const rate = new MessageRate(opts.maxMessagesPerSecond ?? 200);
  client.on('message', (data, isBinary) => {
    if (!rate.admit()) return client.close(1008, 'too many messages');
    let parsed;
    try {
      parsed = isBinary ? undefined : viewerMessageSchema.safeParse(JSON.parse(data.toString()));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) return client.close(1003, 'unreadable message');
    dispatch(screen, cdp, parsed.data, opts)?.catch((err: unknown) => opts.log.debug('live view input not delivered', { error: (err as Error).message }));
  });
  client.on('error', () => client.terminate());

  const viewerGone = new Promise<void>((resolve) => (client.readyState === client.CLOSED ? resolve() : client.once('close', () => resolve())));
  try {
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    await Promise.race([viewerGone, cdp.closed]);
    if (client.readyState === client.OPEN) {
      screen.send({ type: 'ended', reason: 'the session browser closed' });
      client.close(1001, 'the session ended');
    }
  } finally {
    cdp.close();
    await cdp.closed;
  }
}
