// The user's Pause as the extension keeps it. Source of truth: spec 001
// ("Pause is a barrier, not an optimistic UI toggle"; "On restart, the
// extension restores paused state before reconciliation") and DESIGN.md
// "Pause" (persisted by the extension and the host). It lives in
// chrome.storage.local, which survives a browser restart (storage.session
// does not), and is read before the worker says hello to the host.
import { LifecyclePaused, LifecyclePausing, LifecycleReady, PauseByUser, PauseReasonValues } from "../../protocol/generated";
import type { PauseReason } from "../../protocol/generated";
import type { ChromeApi } from "../../chrome/api";
import type { PausePhase } from "../../shared/status";
import type { Log } from "../log";

export const PAUSED_KEY = "paused";
/** Who paused (protocol.PauseReason), kept beside PAUSED_KEY: refusals and the popup say it. */
export const PAUSE_REASON_KEY = "pause_reason";

export class PauseState {
  private stored = false;
  private why: PauseReason = PauseByUser;
  /** A Pause has begun and the host has not yet said it is in force. */
  private settling = false;
  private running = 0;

  constructor(
    private readonly storage: ChromeApi["storageLocal"],
    private readonly log: Log,
  ) {}

  /** Admission is closed: from the moment a Pause begins, not only once it is in force. */
  get paused(): boolean {
    return this.stored;
  }

  /** Who paused, while paused or pausing. */
  get reason(): PauseReason | undefined {
    return this.stored ? this.why : undefined;
  }

  /** Agent requests dispatched in this worker and not yet settled: what a Pause waits for. */
  get inFlight(): number {
    return this.running;
  }

  /**
   * What the popup shows. Pausing lasts until the host, having let its
   * dispatched work settle and stored the Pause, says it is in force
   * (NativePause). With no host connected there is no host work to wait
   * for (a host exits with its port), so only this worker's own work
   * keeps it pausing; the next host tells it the Pause is in force.
   */
  phase(hostConnected: boolean): PausePhase {
    if (!this.stored) return LifecycleReady;
    return this.settling && (hostConnected || this.running > 0) ? LifecyclePausing : LifecyclePaused;
  }

  async load(): Promise<void> {
    const v = await this.storage.get(PAUSED_KEY);
    if (v !== undefined && typeof v !== "boolean") this.log.warn("an unreadable pause record was read as paused");
    // Anything but a plain false keeps the user's Pause: failing closed.
    this.stored = v !== undefined && v !== false;
    const r = await this.storage.get(PAUSE_REASON_KEY);
    this.why = PauseReasonValues.find((p) => p === r) ?? PauseByUser;
  }

  /**
   * Begins a Pause (the popup's button or the host's pausing): stored at
   * once, failing closed across a restart, but shown as pausing until it
   * is in force. A Pause already begun or in force stays as it is (with
   * its reason). The reason is stored before the Pause it explains.
   */
  async begin(reason: PauseReason = PauseByUser): Promise<void> {
    if (this.stored) return;
    await this.storage.set(PAUSE_REASON_KEY, reason);
    this.why = reason;
    await this.storage.set(PAUSED_KEY, true);
    this.stored = true;
    this.settling = true;
  }

  /**
   * The host's pause (in force; a Pause begun here keeps its reason, one
   * the host began is the user's) or unpause (Resume clears the reason).
   * Persists first, then takes effect.
   */
  async set(paused: boolean): Promise<void> {
    const why = paused && this.stored ? this.why : PauseByUser;
    await this.storage.set(PAUSE_REASON_KEY, why);
    this.why = why;
    await this.storage.set(PAUSED_KEY, paused);
    this.stored = paused;
    this.settling = false;
  }

  /** Runs one agent request, counted in inFlight until it settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }
}
