// What one live viewer sees: the browser's tabs, one of them shown by a screencast
// on the viewer's own CDP connection. Each frame is acknowledged at once so Chromium
// keeps sending, and a viewer that reads slower than frames come gets only the
// newest one (never a queue). Tab switches happen one after the other.
import type { WebSocket } from 'ws';
import type { Logger } from '../../../platform/log.ts';
import type { CdpConnection, CdpEvent } from '../../../platform/browser/cdp-connection.ts';
import type { FrameMetadata, HostMessage, TabInfo } from '../protocol/live-view-protocol.ts';

const SCREENCAST = { format: 'jpeg', quality: 70, maxWidth: 1600, maxHeight: 1200, everyNthFrame: 1 };

export class LiveViewScreen {
  private readonly tabs = new Map<string, TabInfo>();
  /** The tab shown, and the CDP session attached to it. */
  current: { targetId: string; sessionId: string } | undefined;
  private newest: HostMessage | undefined;
  private switching = Promise.resolve();

  /** `maxBufferedBytes`: a viewer with this much unsent data gets no new frame until it drains. */
  constructor(
    private readonly cdp: CdpConnection,
    private readonly client: WebSocket,
    private readonly maxBufferedBytes: number,
    private readonly log: Logger,
  ) {}

  send(message: HostMessage): void {
    if (this.client.readyState === this.client.OPEN) this.client.send(JSON.stringify(message));
  }

  /** Shows the tab (none when it is not one of the browser's), after any switch under way. */
  showSerially(targetId: string | undefined): Promise<void> {
    this.switching = this.switching
      .then(() => this.show(targetId))
      .catch((err: unknown) => this.log.debug('live view could not show a tab', { error: (err as Error).message }));
    return this.switching;
  }

  /** Follows the browser's targets and the shown tab's frames. */
  onEvent(event: CdpEvent): void {
    const info = event.params.targetInfo as { targetId: string; type: string; title: string; url: string } | undefined;
    if (event.method === 'Target.targetCreated' || event.method === 'Target.targetInfoChanged') {
      if (info?.type !== 'page') return;
      this.tabs.set(info.targetId, { targetId: info.targetId, title: info.title, url: info.url });
      if (!this.current) void this.showSerially(info.targetId);
      else this.sendTabs();
    } else if (event.method === 'Target.targetDestroyed') {
      const targetId = event.params.targetId as string;
      this.tabs.delete(targetId);
      if (this.current?.targetId === targetId) void this.showSerially(this.tabs.keys().next().value);
      else this.sendTabs();
    } else if (event.method === 'Page.screencastFrame' && event.sessionId === this.current?.sessionId) {
      void this.cdp.send('Page.screencastFrameAck', { sessionId: event.params.sessionId }, event.sessionId).catch(() => undefined);
      this.newest = { type: 'frame', data: event.params.data as string, metadata: event.params.metadata as FrameMetadata };
      this.flushFrame();
    }
  }

  private sendTabs(): void {
    this.send({ type: 'tabs', tabs: [...this.tabs.values()], current: this.current?.targetId ?? null });
  }

  private flushFrame(): void {
    const { client } = this;
    if (!this.newest || client.readyState !== client.OPEN || client.bufferedAmount > this.maxBufferedBytes) return;
    const frame = this.newest;
    this.newest = undefined;
    client.send(JSON.stringify(frame), () => this.flushFrame());
  }

  private async show(targetId: string | undefined): Promise<void> {
    const previous = this.current;
    this.current = undefined;
    if (previous) {
      await this.cdp.send('Page.stopScreencast', {}, previous.sessionId).catch(() => undefined);
      await this.cdp.send('Target.detachFromTarget', { sessionId: previous.sessionId }).catch(() => undefined);
    }
    if (!targetId || !this.tabs.has(targetId)) return this.sendTabs();
    const { sessionId } = await this.cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    this.current = { targetId, sessionId };
    await this.cdp.send('Page.enable', {}, sessionId);
    await this.cdp.send('Page.startScreencast', SCREENCAST, sessionId);
    this.sendTabs();
  }
}
