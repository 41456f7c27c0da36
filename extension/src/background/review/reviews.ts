// YOLO mode and the stages waiting for the human's review, as the extension
// keeps them. Source of truth: spec 000 (Commit, YOLO mode: on by default,
// switched in the popup only) and protocol/commit.go. Both live in
// chrome.storage.local, which survives a browser restart (a stage the host
// holds for five minutes stays reviewable across one), and are read before
// the worker says hello (NativeHello.yolo), like PauseState.
//
// An entry holds the preview the popup shows (effect, the control's name,
// the origin Chrome reports for the tab, the form's visible fields); it is
// keyed by the opaque review handle, the only thing the popup sends back.
// The host holds the stage itself (state, expiry, the step); this store
// answers "is this handle still one the human can see", which turning YOLO
// mode on, a denial or the task's end takes away (commit: stage_discarded).
import { EffectBookmarkRemove, EffectValues, StageTTLMs, ReviewHandleBytes } from "../../protocol/generated";
import type { Effect } from "../../protocol/generated";
import type { ChromeApi } from "../../chrome/api";
import type { PreviewField } from "../../shared/status";
import type { Clock } from "../clock";
import { isFields } from "../fields";
import type { Log } from "../log";
import { randomHex, sha256Hex } from "../random";

export const YOLO_KEY = "yolo";
export const STAGES_KEY = "stages";

/**
 * How long after its expiry an entry is kept: the host's five minutes run
 * from when it recorded the stage, a little after this entry was made, so
 * a commit at the edge meets the host's stage_expired, not this store's
 * stage_discarded. The popup stops showing it at expiresAt.
 */
const RETIRE_GRACE_MS = 60_000;

export interface StageEntry {
  handle: string;
  taskId: string;
  tabId: number;
  effect: Effect;
  /** The tab's origin as Chrome reports its URL, never the page's word. */
  origin: string;
  control: string;
  fields: PreviewField[];
  createdAt: number;
  expiresAt: number;
  state: "pending" | "approved";
  /**
   * A bookmark_remove stage's bookmark (profile/remove.ts): the host's
   * record names no bookmark, so the commit finds it here. tabId is -1.
   */
  bookmarkId?: string | undefined;
}

/**
 * YOLO mode never skips review of a bookmark removal (spec 000), so
 * turning it on, or finding it on at load, keeps those stages' entries.
 */
function survivesYolo(e: StageEntry): boolean {
  return e.effect === EffectBookmarkRemove;
}

/** A new review handle: the only thing the popup sends back (protocol.ReviewHandleBytes random bytes, hex). */
export function newReviewHandle(): string {
  return randomHex(ReviewHandleBytes);
}

/** The worker's review store (main.ts makes one; Context carries it). */
export interface HasReviews {
  readonly reviews: Reviews;
}

export class Reviews {
  private on = true;
  private entries = new Map<string, StageEntry>();
  private cancelExpiry: () => void = () => undefined;

  constructor(
    private readonly storage: ChromeApi["storageLocal"],
    private readonly clock: Clock,
    private readonly log: Log,
    /** Called with pending() whenever it may have changed, expiry included (the badge). */
    private readonly changed: (pending: number) => void = () => undefined,
  ) {}

  /** YOLO mode: recognised effects run without review (the default). */
  get yolo(): boolean {
    return this.on;
  }

  async load(): Promise<void> {
    const yolo = await this.storage.get(YOLO_KEY);
    // Unset is the default (on); an unreadable value fails closed: review.
    if (yolo !== undefined && typeof yolo !== "boolean") this.log.warn("an unreadable YOLO mode record was read as off");
    this.on = yolo === undefined || yolo === true;
    const stored = await this.storage.get(STAGES_KEY);
    this.entries = new Map();
    if (Array.isArray(stored)) {
      for (const e of stored) {
        if (isEntry(e)) this.entries.set(e.handle, e);
        else this.log.warn("an unreadable stage entry was dropped");
      }
    } else if (stored !== undefined) {
      this.log.warn("an unreadable stage list was dropped");
    }
    // setYolo writes the switch, then the entries: a worker stopped
    // between the two leaves entries whose stages the host discards.
    const dropped = [...this.entries.values()].filter((e) => !survivesYolo(e));
    if (this.on && dropped.length > 0) {
      this.log.info(`YOLO mode is on: ${dropped.length} stage entries left from before were dropped`);
      for (const e of dropped) this.entries.delete(e.handle);
      await this.save();
      return;
    }
    this.announce();
  }

  /** The user's switch. Turning it on drops every entry (the host discards their stages: NativeYolo). */
  async setYolo(on: boolean): Promise<void> {
    await this.storage.set(YOLO_KEY, on);
    this.on = on;
    const dropped = [...this.entries.values()].filter((e) => !survivesYolo(e));
    if (on && dropped.length > 0) {
      for (const e of dropped) this.entries.delete(e.handle);
      await this.save();
    }
  }

  async add(entry: StageEntry): Promise<void> {
    this.entries.set(entry.handle, entry);
    await this.save();
  }

  /** The entries the popup shows, oldest first; those long past their expiry are retired. */
  async list(): Promise<StageEntry[]> {
    const now = this.clock.now();
    const old = [...this.entries.values()].filter((e) => e.expiresAt + RETIRE_GRACE_MS <= now);
    if (old.length > 0) {
      for (const e of old) this.entries.delete(e.handle);
      await this.save();
    }
    return [...this.entries.values()].filter((e) => e.expiresAt > now).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Whether the handle is still one the human can see (the host decides expiry). */
  has(handle: string): boolean {
    return this.entries.has(handle);
  }

  /** The entry whose handle's hex SHA-256 is digest (the host keeps only digests: protocol ExtCommitParams), or undefined. */
  async entryOf(digest: string): Promise<StageEntry | undefined> {
    for (const e of this.entries.values()) if ((await sha256Hex(e.handle)) === digest) return e;
    return undefined;
  }

  /** How many stages wait for the human's Approve or Deny: pending and not expired (what the badge counts). */
  pending(): number {
    const now = this.clock.now();
    let n = 0;
    for (const e of this.entries.values()) if (e.state === "pending" && e.expiresAt > now) n++;
    return n;
  }

  get(handle: string): StageEntry | undefined {
    return this.entries.get(handle);
  }

  /** The human's Approve (the entry waits for the commit) or Deny (it goes). Answers the entry as it was, or undefined. */
  async markReviewed(handle: string, approve: boolean): Promise<StageEntry | undefined> {
    const e = this.entries.get(handle);
    if (e === undefined) return undefined;
    if (approve) this.entries.set(handle, { ...e, state: "approved" });
    else this.entries.delete(handle);
    await this.save();
    return e;
  }

  async remove(handle: string): Promise<void> {
    if (this.entries.delete(handle)) await this.save();
  }

  /** The task finished or was ended: its stages are discarded. */
  async dropTask(taskId: string): Promise<void> {
    let dropped = false;
    for (const e of [...this.entries.values()]) {
      if (e.taskId === taskId) dropped = this.entries.delete(e.handle) || dropped;
    }
    if (dropped) await this.save();
  }

  /** A new entry's times: it expires StageTTLMs after now. */
  times(): { createdAt: number; expiresAt: number } {
    const createdAt = this.clock.now();
    return { createdAt, expiresAt: createdAt + StageTTLMs };
  }

  private async save(): Promise<void> {
    this.announce();
    await this.storage.set(STAGES_KEY, [...this.entries.values()]);
  }

  /** Reports pending(), and again when the next pending stage expires. */
  private announce(): void {
    this.changed(this.pending());
    this.cancelExpiry();
    const now = this.clock.now();
    const next = Math.min(...[...this.entries.values()].filter((e) => e.state === "pending" && e.expiresAt > now).map((e) => e.expiresAt));
    this.cancelExpiry = Number.isFinite(next) ? this.clock.after(next - now, () => this.announce()) : () => undefined;
  }
}

function isField(v: unknown): v is PreviewField {
  return isFields(v) && typeof v["label"] === "string" && typeof v["value"] === "string" && typeof v["sensitive"] === "boolean";
}

function isEntry(v: unknown): v is StageEntry {
  if (!isFields(v)) return false;
  const f = v["fields"];
  return (
    typeof v["handle"] === "string" &&
    typeof v["taskId"] === "string" &&
    typeof v["tabId"] === "number" &&
    EffectValues.some((e) => e === v["effect"]) &&
    typeof v["origin"] === "string" &&
    typeof v["control"] === "string" &&
    Array.isArray(f) &&
    f.every(isField) &&
    typeof v["createdAt"] === "number" &&
    typeof v["expiresAt"] === "number" &&
    (v["state"] === "pending" || v["state"] === "approved") &&
    (v["bookmarkId"] === undefined || typeof v["bookmarkId"] === "string")
  );
}
