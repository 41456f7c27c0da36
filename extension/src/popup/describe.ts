// The words the popup shows: the host connection, the Pause, staged
// actions, attention notices and tasks. Pure functions of the worker's
// StatusReply (shared/status.ts), unit-tested in describe.test.ts.
import { LifecyclePaused, LifecyclePausing, LifecycleReady, PauseByDebuggerCancel } from "../protocol/generated";
import type { Effect, HandoffReason, PauseReason } from "../protocol/generated";
import type { HostState, PausePhase, PreviewField } from "../shared/status";

export interface HostText {
  line: string;
  /** What the user can do about it, when there is something. */
  recovery: string;
}

export function describeHost(h: HostState): HostText {
  switch (h.state) {
    case "connecting":
      return { line: "Connecting to the AgentTab host…", recovery: "" };
    case "connected":
      return { line: `Connected to the host${h.hostVersion === "" ? "" : ` ${h.hostVersion}`}.`, recovery: "" };
    case "reconnecting":
      return {
        line: `Not connected: ${h.reason.endsWith(".") ? h.reason.slice(0, -1) : h.reason}. Retrying in ${Math.ceil(h.retryInMs / 1000)} s.`,
        recovery: "If this persists, run `agenttab install` and `agenttab doctor`.",
      };
    case "rejected":
      return { line: `The host refused the extension (${h.code}): ${h.message}`, recovery: h.recovery };
  }
}

export interface PauseText {
  /** The line under the host's; empty while agents run. */
  line: string;
  button: string;
  /** The button is disabled: a Pause is settling. */
  busy: boolean;
}

/**
 * Spec 001: Pause is a barrier, not an optimistic toggle. Pausing, with
 * what is still settling, lasts until the Pause is in force; Resume is
 * offered only then (the host serialises Pause and Resume anyway). A
 * Cancel on Chrome's debugging banner is the user's Pause too (issue 12),
 * and the line says so, since the user may not connect the two.
 */
export function describePause(phase: PausePhase, settling: number, reason?: PauseReason): PauseText {
  switch (phase) {
    case LifecycleReady:
      return { line: "", button: "Pause agents", busy: false };
    case LifecyclePausing:
      return {
        line: `Pausing: no new work starts; ${settling === 0 ? "waiting for the host to confirm" : `waiting for ${count(settling, "agent request")} already running to finish`}.`,
        button: "Pausing…",
        busy: true,
      };
    case LifecyclePaused:
      if (reason === PauseByDebuggerCancel) {
        return { line: "Paused: you clicked Cancel on Chrome's debugging banner. Resume lets agents work again.", button: "Resume agents", busy: false };
      }
      return { line: "Agents are paused: no browser work runs until you resume.", button: "Resume agents", busy: false };
  }
}

/** "1 tab", "3 tabs". */
export function tabCount(n: number): string {
  return count(n, "tab");
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

// What a staged control would do, as the end of "<task> wants to …".
const effectWords: Record<Effect, string> = {
  send: "send",
  publish: "publish",
  purchase: "make a purchase",
  delete: "delete",
  upload: "upload a file",
  authorization: "authorize access",
  permission_grant: "grant a permission",
  bookmark_remove: "remove a bookmark",
};

/** "Agent 1 wants to send". */
export function describeEffect(taskLabel: string, effect: Effect): string {
  return `${taskLabel} wants to ${effectWords[effect]}`;
}

/** A form field of a preview: "To: ada@example.com"; a sensitive field's value is never kept, and shows as (hidden). */
export function describeField(f: PreviewField): string {
  const label = f.label === "" ? "(unlabelled field)" : f.label;
  const value = f.sensitive ? "(hidden)" : f.value === "" ? "(empty)" : f.value;
  return `${label}: ${value}`;
}

// Why an agent asks for the user, as the end of "<task> needs you for …".
const reasonWords: Record<HandoffReason, string> = {
  passkey: "a passkey",
  security_key: "a security key",
  captcha: "a CAPTCHA",
  login: "a sign-in",
  payment: "a payment step",
  account_recovery: "account recovery",
  verification: "a verification step",
  other: "a step only you can do",
};

/** "Agent 1 needs you for a CAPTCHA". */
export function describeReason(taskLabel: string, reason: HandoffReason): string {
  return `${taskLabel} needs you for ${reasonWords[reason]}`;
}

/** How long ago: "just now", "45 s ago", "2 min ago", "3 h ago". */
export function ago(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 5) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}

/** How long a stage still lives: "4 min left", "45 s left", "expired". */
export function timeLeft(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s <= 0) return "expired";
  if (s < 60) return `${s} s left`;
  return `${Math.ceil(s / 60)} min left`;
}

/** A task's agent connection and when it last acted: "connected · last acted 2 min ago". */
export function describeTaskState(connected: boolean, idleMs?: number): string {
  const state = connected ? "connected" : "disconnected";
  return idleMs === undefined ? state : `${state} · last acted ${ago(idleMs)}`;
}
