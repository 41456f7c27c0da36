// What every handler and watcher of the service worker works with.
import type { ChromeApi } from "../chrome/api";
import type { Clock } from "./clock";
import type { Log } from "./log";
import type { Ownership } from "./ownership";

export interface Context {
  readonly chrome: ChromeApi;
  readonly ownership: Ownership;
  /** Sends an event to the host (dropped while it is not connected). */
  notify(event: string, params: unknown): void;
  readonly clock: Clock;
  readonly log: Log;
}
