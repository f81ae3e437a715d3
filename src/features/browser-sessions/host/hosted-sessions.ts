// The sessions a browser host runs, by id: what its activities launch and close,
// and what its relay serves (CDP, live views, executes).
import type { SessionProfile } from '../protocol/definitions.ts';
import type { SessionChromium } from './session-chromium.ts';

/** A session's browser on this host. */
export interface HostedSession {
  sessionId: string;
  teamId: string;
  dir: string;
  chromium: SessionChromium;
  profile?: SessionProfile;
  /** Set when its close begins: the relay refuses new executes and answers running ones SESSION_DESTROYED. */
  closing?: boolean;
}

/** What the host process holds: its sessions by id, shared by the activities and the relay. */
export type HostedSessions = Map<string, HostedSession>;
