// What the popup asks the service worker and what it gets back. It holds
// counts and labels only, never page content (the popup is not a place to
// show what agents read).
import type { LifecyclePaused, LifecyclePausing, LifecycleReady } from "../protocol/generated";

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

/**
 * The Pause as the popup shows it, in the host's lifecycle words
 * (protocol/pause.go): agents run (ready), a Pause has begun and
 * dispatched work is settling (pausing), or the Pause is in force (paused).
 */
export type PausePhase = typeof LifecycleReady | typeof LifecyclePausing | typeof LifecyclePaused;

export interface StatusReply {
  host: HostState;
  tasks: TaskSummary[];
  pause: PausePhase;
  /** Agent requests dispatched in this worker and not yet settled. */
  settling: number;
  /** Automation (the optional scripting permission) is granted. */
  automation: boolean;
  /** Adoption requests waiting for the user's Allow or Deny. */
  adoptions: AdoptionSummary[];
}

/** A pending adoption as the popup shows it: who asks, and for which tab (title and origin only). */
export interface AdoptionSummary {
  id: string;
  taskLabel: string;
  taskColor: string;
  title: string;
  origin: string;
}

export const ADOPTION_ANSWER = "agenttab.adoption";

/** The popup's Allow or Deny on one adoption request; answered with a StatusReply. */
export interface AdoptionAnswer {
  type: typeof ADOPTION_ANSWER;
  id: string;
  allow: boolean;
}

export function isAdoptionAnswer(v: unknown): v is AdoptionAnswer {
  return typeof v === "object" && v !== null && "type" in v && v.type === ADOPTION_ANSWER && "id" in v && typeof v.id === "string" && "allow" in v && typeof v.allow === "boolean";
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
