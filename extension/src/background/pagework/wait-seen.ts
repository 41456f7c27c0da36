// What a wait's probe reports each round, on either route (wait.ts polls
// probes; the routes, debugger-route.ts and scripting-route.ts, and
// wait-net.ts make them).
import type { DownloadInfo } from "../../protocol/generated";
import type { WaitState } from "../act/validate";
import type { ElementState } from "../agent-client/answers";

export interface Seen {
  ok: boolean;
  seen: string;
  download?: DownloadInfo;
}

export type Probe = () => Promise<Seen>;

/** Whether an element in state holds for a ref wait that wants want. */
export function refSeen(ref: string, state: ElementState, want: WaitState): Seen {
  const shown = state === "visible" || state === "enabled" || state === "disabled";
  const ok = want === "hidden" ? !shown : want === "enabled" ? state === "enabled" : shown;
  return { ok, seen: `${ref} is ${state}` };
}

/** A text wait's answer: present and not gone, or absent and gone. */
export function textSeen(present: boolean, gone: boolean): Seen {
  return { ok: present !== gone, seen: present ? "text present" : "text not present" };
}
