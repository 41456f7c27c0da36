// What every handler and watcher of the service worker works with.
import type { ChromeApi } from "../chrome/api";
import type { Adoptions } from "./tabs/adoptions";
import type { Clock } from "./clock";
import type { Log } from "./log";
import type { OriginGuard } from "./origins/origin-guard";
import type { Ownership } from "./tabs/ownership";
import type { Pages } from "./pagework/page-tab";
import type { PauseState } from "./pause/pause-state";
import type { Children } from "./tabs/children";

export interface Context {
  readonly chrome: ChromeApi;
  readonly ownership: Ownership;
  /** Debugger sessions and page state of owned tabs (page work). */
  readonly pages: Pages;
  /** Adoption requests waiting for the user's answer in the popup. */
  readonly adoptions: Adoptions;
  /** The user's Pause: while set, only global work runs. */
  readonly pause: PauseState;
  /** Which steps are watching for the popups of which tab. */
  readonly children: Children;
  /** The managed origin policy: checks, and the guard on owned tabs' navigations. */
  readonly origins: OriginGuard;
  /** Sends an event to the host (dropped while it is not connected). */
  notify(event: string, params: unknown): void;
  readonly clock: Clock;
  readonly log: Log;
}
