// What the popup asks the service worker and what it gets back. It holds
// counts and labels only, never page content (the popup is not a place to
// show what agents read).

export const STATUS_REQUEST = "agenttab.status";

export interface StatusRequest {
  type: typeof STATUS_REQUEST;
}

/** The native host connection as the popup shows it. */
export type HostState =
  | { state: "connecting" }
  | { state: "connected"; hostVersion: string }
  | { state: "reconnecting"; reason: string; retryInMs: number }
  | { state: "rejected"; code: string; message: string; recovery: string };

export interface TaskSummary {
  label: string;
  color: string;
  ownedTabs: number;
}

export interface StatusReply {
  host: HostState;
  tasks: TaskSummary[];
  /** The user's Pause, as the extension holds it. */
  paused: boolean;
}

export const PAUSE_REQUEST = "agenttab.pause";

/** The popup's Pause (paused: true) or Resume (paused: false) button; answered with a StatusReply. */
export interface PauseRequest {
  type: typeof PAUSE_REQUEST;
  paused: boolean;
}

export function isPauseRequest(v: unknown): v is PauseRequest {
  return typeof v === "object" && v !== null && "type" in v && v.type === PAUSE_REQUEST && "paused" in v && typeof v.paused === "boolean";
}

export function isStatusRequest(v: unknown): v is StatusRequest {
  return typeof v === "object" && v !== null && "type" in v && v.type === STATUS_REQUEST;
}
