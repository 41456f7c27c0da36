// The small interfaces a handler or watcher takes, one per part of the
// worker's Context (context.ts), for the parts that depend on no page work:
// each function takes the intersection of those it uses (issue 10: not one
// object every file takes whole). They live apart from context.ts because
// Context also holds the page work, the origin guard and the children, and
// the modules those import (task-group.ts, the debugger's) must be able to
// name these without an import circle.
import type { ChromeApi } from "../chrome/api";
import type { Adoptions } from "./tabs/adoptions";
import type { Clock } from "./clock";
import type { Log } from "./log";
import type { Notices } from "./notices/notices";
import type { Ownership } from "./tabs/ownership";
import type { PauseState } from "./pause/pause-state";

export interface HasChrome {
  readonly chrome: ChromeApi;
}

/** The tabs each task owns (tabs/ownership.ts). */
export interface HasOwnership {
  readonly ownership: Ownership;
}

/** Adoption requests waiting for the user's answer in the popup. */
export interface HasAdoptions {
  readonly adoptions: Adoptions;
}

/** Attention notices agents left for the user (browser_handoff). */
export interface HasNotices {
  readonly notices: Notices;
}

/** The user's Pause: while set, only global work runs. */
export interface HasPause {
  readonly pause: PauseState;
}

export interface Notifies {
  /** Sends an event to the host (dropped while it is not connected). */
  notify(event: string, params: unknown): void;
}

export interface HasClock {
  readonly clock: Clock;
}

export interface HasLog {
  readonly log: Log;
}
