import { describe, expect, it } from 'vitest';
import { inputCommand, MessageRate } from '../../../src/features/browser-sessions/host/live-view-input.ts';
import { viewerMessageSchema } from '../../../src/features/browser-sessions/protocol/live-view-protocol.ts';

const command = (message: unknown) => {
  const parsed = viewerMessageSchema.parse(message);
  if (parsed.type === 'switch') throw new Error('not an input');
  return inputCommand(parsed);
};

describe('live view input', () => {
  it('dispatches mouse and wheel events at the page’s coordinates', () => {
    expect(command({ type: 'mouse', event: 'mousePressed', x: 10, y: 20, button: 'left', clickCount: 1 })).toEqual({
      method: 'Input.dispatchMouseEvent',
      params: { type: 'mousePressed', x: 10, y: 20, button: 'left', clickCount: 1, modifiers: 0 },
    });
    expect(command({ type: 'wheel', x: 1, y: 2, deltaX: 0, deltaY: 120, modifiers: 8 })).toEqual({
      method: 'Input.dispatchMouseEvent',
      params: { type: 'mouseWheel', x: 1, y: 2, deltaX: 0, deltaY: 120, modifiers: 8 },
    });
  });

  it('types a character only for a keyDown with text; other key presses are raw', () => {
    expect(command({ type: 'key', event: 'keyDown', key: 'a', code: 'KeyA', text: 'a', keyCode: 65 }).params).toEqual({
      type: 'keyDown',
      key: 'a',
      code: 'KeyA',
      windowsVirtualKeyCode: 65,
      modifiers: 0,
      text: 'a',
    });
    expect(command({ type: 'key', event: 'keyDown', key: 'Enter', keyCode: 13 }).params).toMatchObject({ type: 'rawKeyDown', key: 'Enter' });
    expect(command({ type: 'key', event: 'keyUp', key: 'a', text: 'a' }).params).not.toHaveProperty('text');
    expect(command({ type: 'text', text: 'héllo' })).toEqual({ method: 'Input.insertText', params: { text: 'héllo' } });
  });

  it('admits so many messages a second, and as many again in the next second', () => {
    const rate = new MessageRate(3, 0);
    expect([0, 100, 200, 999].map((t) => rate.admit(t))).toEqual([true, true, true, false]);
    expect([1000, 1001, 1002, 1003].map((t) => rate.admit(t))).toEqual([true, true, true, false]);
  });
});
