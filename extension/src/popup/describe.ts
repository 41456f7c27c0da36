// The words the popup shows for the host connection and the Pause.
import { LifecyclePaused, LifecyclePausing, LifecycleReady } from "../protocol/generated";
import type { HostState, PausePhase } from "../shared/status";

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
 * offered only then (the host serialises Pause and Resume anyway).
 */
export function describePause(phase: PausePhase, settling: number): PauseText {
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
