// What a live viewer and the browser host say to each other over the live-view
// WebSocket. The viewer's messages are hostile input: every one is checked here,
// and anything else closes the connection.
import { z } from 'zod';

const coordinate = z.number().finite().min(-100_000).max(100_000);
const MODIFIERS_MAX = 15;

export const viewerMessageSchema = z.discriminatedUnion('type', [
  /** Show another tab of the session. */
  z.strictObject({ type: z.literal('switch'), targetId: z.string().min(1).max(128) }),
  z.strictObject({
    type: z.literal('mouse'),
    event: z.enum(['mousePressed', 'mouseReleased', 'mouseMoved']),
    /** In the page's CSS pixels (the viewer scales from its canvas with the frame's metadata). */
    x: coordinate,
    y: coordinate,
    button: z.enum(['none', 'left', 'middle', 'right']).default('none'),
    clickCount: z.int().min(0).max(3).default(0),
    modifiers: z.int().min(0).max(MODIFIERS_MAX).default(0),
  }),
  z.strictObject({
    type: z.literal('wheel'),
    x: coordinate,
    y: coordinate,
    deltaX: coordinate,
    deltaY: coordinate,
    modifiers: z.int().min(0).max(MODIFIERS_MAX).default(0),
  }),
  z.strictObject({
    type: z.literal('key'),
    event: z.enum(['keyDown', 'keyUp']),
    key: z.string().max(32),
    code: z.string().max(32).default(''),
    /** The character a keyDown types, when it types one. */
    text: z.string().max(4).optional(),
    keyCode: z.int().min(0).max(255).default(0),
    modifiers: z.int().min(0).max(MODIFIERS_MAX).default(0),
  }),
  /** Text pasted or composed at once (IME). */
  z.strictObject({ type: z.literal('text'), text: z.string().min(1).max(10_000) }),
]);

export type ViewerMessage = z.infer<typeof viewerMessageSchema>;

export interface TabInfo {
  targetId: string;
  title: string;
  url: string;
}

export interface FrameMetadata {
  deviceWidth: number;
  deviceHeight: number;
  pageScaleFactor: number;
  offsetTop: number;
  scrollOffsetX: number;
  scrollOffsetY: number;
}

/** What the host sends: the tab list (and which is shown), and frames as base64 JPEG. */
export type HostMessage =
  { type: 'tabs'; tabs: TabInfo[]; current: string | null } | { type: 'frame'; data: string; metadata: FrameMetadata } | { type: 'ended'; reason: string };
