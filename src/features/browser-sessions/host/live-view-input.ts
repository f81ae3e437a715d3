// A live viewer's messages as the host takes them: at most so many a second, and
// each input as the CDP command that dispatches it to the shown tab.
import type { ViewerMessage } from '../protocol/live-view-protocol.ts';

export type InputMessage = Exclude<ViewerMessage, { type: 'switch' }>;

/** The CDP command that dispatches a viewer's input to a tab. */
export function inputCommand(message: InputMessage): { method: string; params: Record<string, unknown> } {
  switch (message.type) {
    case 'mouse':
      return {
        method: 'Input.dispatchMouseEvent',
        params: { type: message.event, x: message.x, y: message.y, button: message.button, clickCount: message.clickCount, modifiers: message.modifiers },
      };
    case 'wheel':
      return {
        method: 'Input.dispatchMouseEvent',
        params: { type: 'mouseWheel', x: message.x, y: message.y, deltaX: message.deltaX, deltaY: message.deltaY, modifiers: message.modifiers },
      };
    case 'key':
      return {
        method: 'Input.dispatchKeyEvent',
        params: {
          // Chromium types a character only for a keyDown with text; one without is a raw key press.
          type: message.event === 'keyDown' && message.text ? 'keyDown' : message.event === 'keyDown' ? 'rawKeyDown' : 'keyUp',
          key: message.key,
          code: message.code,
          windowsVirtualKeyCode: message.keyCode,
          modifiers: message.modifiers,
          ...(message.text && message.event === 'keyDown' && { text: message.text }),
        },
      };
    case 'text':
      return { method: 'Input.insertText', params: { text: message.text } };
  }
}

/** Counts messages in one-second windows; a viewer over the limit is disconnected. */
export class MessageRate {
  private windowStart: number;
  private inWindow = 0;

  constructor(
    private readonly maxPerSecond: number,
    now = Date.now(),
  ) {
    this.windowStart = now;
  }

  /** Whether one more message at `now` is within the limit. */
  admit(now = Date.now()): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    return ++this.inWindow <= this.maxPerSecond;
  }
}
