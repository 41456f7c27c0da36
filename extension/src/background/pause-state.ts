// The user's Pause as the extension keeps it. Source of truth: spec 001
// ("On restart, the extension restores paused state before
// reconciliation") and DESIGN.md "Pause" (persisted by the extension and
// the host). It lives in chrome.storage.local, which survives a browser
// restart (storage.session does not), and is read before the worker says
// hello to the host.
import type { ChromeApi } from "../chrome/api";
import type { Log } from "./log";

export const PAUSED_KEY = "paused";

export class PauseState {
  private value = false;

  constructor(
    private readonly storage: ChromeApi["storageLocal"],
    private readonly log: Log,
  ) {}

  get paused(): boolean {
    return this.value;
  }

  async load(): Promise<void> {
    const v = await this.storage.get(PAUSED_KEY);
    if (v !== undefined && typeof v !== "boolean") this.log.warn("an unreadable pause record was read as paused");
    // Anything but a plain false keeps the user's Pause: failing closed.
    this.value = v !== undefined && v !== false;
  }

  /** Persists first, then takes effect: nothing is reported before it is stored. */
  async set(paused: boolean): Promise<void> {
    await this.storage.set(PAUSED_KEY, paused);
    this.value = paused;
  }
}
