// The words the popup shows for the host connection.
import type { HostState } from "../shared/status";

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

/** "1 tab", "3 tabs". */
export function tabCount(n: number): string {
  return n === 1 ? "1 tab" : `${n} tabs`;
}
