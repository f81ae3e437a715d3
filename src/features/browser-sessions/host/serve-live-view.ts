// One live viewer, served on the browser host: a CDP connection of its own to the
// session's browser streams the shown tab (Page.startScreencast); each frame is
// acknowledged at once so Chromium keeps sending, and a viewer that reads slower
// than frames come gets only the newest one (never a queue). The tab list follows
// the browser's targets; the viewer may switch tabs. Interactive viewers' mouse,
// wheel and keyboard input is dispatched to the shown tab; view-only viewers'
// input is dropped. Closing the viewer detaches from the tab and nothing else.
import type { WebSocket } from 'ws';
import type { Logger } from '../../../platform/log.ts';
import { CdpConnection, type CdpEvent } from '../../../platform/browser/cdp-connection.ts';
import { viewerMessageSchema, type FrameMetadata, type HostMessage, type TabInfo, type ViewerMessage } from '../protocol/live-view-protocol.ts';

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

const SCREENCAST = { format: 'jpeg', quality: 70, maxWidth: 1600, maxHeight: 1200, everyNthFrame: 1 };

export async function serveLiveView(client: WebSocket, cdpUrl: string, opts: LiveViewOptions): Promise<void> {
  const maxBuffered = opts.maxBufferedBytes ?? 2 * 1024 * 1024;
  const maxRate = opts.maxMessagesPerSecond ?? 200;
  const cdp = await CdpConnection.open(cdpUrl);
  const tabs = new Map<string, TabInfo>();
  let current: { targetId: string; sessionId: string } | undefined;
  let newest: HostMessage | undefined;
  let switching = Promise.resolve();

  const send = (message: HostMessage) => {
    if (client.readyState === client.OPEN) client.send(JSON.stringify(message));
  };
  const sendTabs = () => send({ type: 'tabs', tabs: [...tabs.values()], current: current?.targetId ?? null });
  const flushFrame = () => {
    if (!newest || client.readyState !== client.OPEN || client.bufferedAmount > maxBuffered) return;
    const frame = newest;
    newest = undefined;
    client.send(JSON.stringify(frame), () => flushFrame());
  };

  async function show(targetId: string | undefined): Promise<void> {
    const previous = current;
    current = undefined;
    if (previous) {
      await cdp.send('Page.stopScreencast', {}, previous.sessionId).catch(() => undefined);
      await cdp.send('Target.detachFromTarget', { sessionId: previous.sessionId }).catch(() => undefined);
    }
    if (!targetId || !tabs.has(targetId)) return sendTabs();
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    current = { targetId, sessionId };
    await cdp.send('Page.enable', {}, sessionId);
    await cdp.send('Page.startScreencast', SCREENCAST, sessionId);
    sendTabs();
  }
  const showSerially = (targetId: string | undefined) => {
    switching = switching
      .then(() => show(targetId))
      .catch((err: unknown) => opts.log.debug('live view could not show a tab', { error: (err as Error).message }));
    return switching;
  };

  const onEvent = (event: CdpEvent) => {
    const info = event.params.targetInfo as { targetId: string; type: string; title: string; url: string } | undefined;
    if (event.method === 'Target.targetCreated' || event.method === 'Target.targetInfoChanged') {
      if (info?.type !== 'page') return;
      tabs.set(info.targetId, { targetId: info.targetId, title: info.title, url: info.url });
      if (!current) void showSerially(info.targetId);
      else sendTabs();
    } else if (event.method === 'Target.targetDestroyed') {
      const targetId = event.params.targetId as string;
      tabs.delete(targetId);
      if (current?.targetId === targetId) void showSerially(tabs.keys().next().value);
      else sendTabs();
    } else if (event.method === 'Page.screencastFrame' && event.sessionId === current?.sessionId) {
      void cdp.send('Page.screencastFrameAck', { sessionId: event.params.sessionId }, event.sessionId).catch(() => undefined);
      newest = { type: 'frame', data: event.params.data as string, metadata: event.params.metadata as FrameMetadata };
      flushFrame();
    }
  };
  cdp.on(onEvent);

  function dispatch(message: ViewerMessage): Promise<unknown> | undefined {
    if (message.type === 'switch') return showSerially(message.targetId);
    if (!opts.interactive || !current) return undefined;
    opts.onInput?.();
    const session = current.sessionId;
    switch (message.type) {
      case 'mouse':
        return cdp.send(
          'Input.dispatchMouseEvent',
          { type: message.event, x: message.x, y: message.y, button: message.button, clickCount: message.clickCount, modifiers: message.modifiers },
          session,
        );
      case 'wheel':
        return cdp.send(
          'Input.dispatchMouseEvent',
          { type: 'mouseWheel', x: message.x, y: message.y, deltaX: message.deltaX, deltaY: message.deltaY, modifiers: message.modifiers },
          session,
        );
      case 'key':
        return cdp.send(
          'Input.dispatchKeyEvent',
          {
            type: message.event === 'keyDown' && message.text ? 'keyDown' : message.event === 'keyDown' ? 'rawKeyDown' : 'keyUp',
            key: message.key,
            code: message.code,
            windowsVirtualKeyCode: message.keyCode,
            modifiers: message.modifiers,
            ...(message.text && message.event === 'keyDown' && { text: message.text }),
          },
          session,
        );
      case 'text':
        return cdp.send('Input.insertText', { text: message.text }, session);
    }
  }

  let windowStart = Date.now();
  let inWindow = 0;
  client.on('message', (data, isBinary) => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow > maxRate) return client.close(1008, 'too many messages');
    let parsed;
    try {
      parsed = isBinary ? undefined : viewerMessageSchema.safeParse(JSON.parse(data.toString()));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) return client.close(1003, 'unreadable message');
    dispatch(parsed.data)?.catch((err: unknown) => opts.log.debug('live view input not delivered', { error: (err as Error).message }));
  });
  client.on('error', () => client.terminate());

  const viewerGone = new Promise<void>((resolve) => (client.readyState === client.CLOSED ? resolve() : client.once('close', () => resolve())));
  try {
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    await Promise.race([viewerGone, cdp.closed]);
    if (client.readyState === client.OPEN) {
      send({ type: 'ended', reason: 'the session browser closed' });
      client.close(1001, 'the session ended');
    }
  } finally {
    cdp.close();
    await cdp.closed;
  }
}
