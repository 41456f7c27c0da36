// Attention notices: what an agent's browser_handoff leaves for the user.
// Source of truth: spec 000 (handoff, notices, idle state), spec 001 (one
// advisory notice per task tab, replaced with a new notice_id; notices
// never gate admission, scheduling, Pause or finish; finish clears them)
// and protocol/handoff.go. They live in chrome.storage.local (the popup
// shows them after a worker or browser restart, and the host keeps none).
// A notice's expiry retires only its reminder (the popup and the badge
// stop showing it; expires_in_ms reads 0): it stays open for its agent and
// for the blackout until the agent closes it or the task finishes, since
// the agent chooses the lifetime and the user may still be on the tab. A
// notice lives as long as its task owns its tab: ownership
// (tabs/ownership.ts) is the one record of that, so a notice of a revoked
// tab counts as gone everywhere, and is dropped at the next write.
import { HandlePrefixNotice, NoticeDismissed, NoticeOpen, NoticeReplaced, NoticeResolved } from "../../protocol/generated";
import type { ExtNotice, HandoffReason } from "../../protocol/generated";
import type { ChromeApi } from "../../chrome/api";
import type { Clock } from "../clock";
import type { Log } from "../log";
import { randomHex } from "../random";

export const NOTICES_KEY = "notices";

/** Closed notices kept per task for status, newest first beyond the open ones. */
const KEPT_CLOSED = 20;

/** A notice as stored. expiresAt ends its reminder only, never its state. */
export interface NoticeRecord {
  noticeId: string;
  taskId: string;
  tabId: number;
  reason: HandoffReason;
  /** The agent's optional message, shown by the popup as text. */
  message: string;
  /** The origin Chrome reported for the tab when the notice was made. */
  origin: string;
  createdAt: number;
  expiresAt: number;
  state: typeof NoticeOpen | typeof NoticeResolved | typeof NoticeDismissed | typeof NoticeReplaced;
  /** The user pressed Dismiss in the popup: the reminder is hidden, the notice stays open. */
  hidden: boolean;
}

export interface NoticeRequest {
  taskId: string;
  tabId: number;
  reason: HandoffReason;
  message: string;
  origin: string;
  expiresInMs: number;
}

export class Notices {
  private records: NoticeRecord[] = [];
  private cancelExpiry: () => void = () => undefined;

  constructor(
    private readonly storage: ChromeApi["storageLocal"],
    private readonly clock: Clock,
    private readonly log: Log,
    /** Whether the task still owns the tab (Ownership). */
    private readonly owned: (taskId: string, tabId: number) => boolean,
    /** Called with the count of open visible notices whenever it may have changed (the badge). */
    private readonly changed: (visible: number) => void = () => undefined,
  ) {}

  async load(): Promise<void> {
    const v = await this.storage.get(NOTICES_KEY);
    if (v !== undefined && !Array.isArray(v)) this.log.warn("an unreadable notices record was dropped");
    this.records = Array.isArray(v) ? v.filter(isRecord) : [];
    this.announce();
  }

  /** Records a notice for the tab, replacing its open one (which becomes replaced). */
  async request(r: NoticeRequest): Promise<NoticeRecord> {
    const now = this.clock.now();
    for (const old of this.records) if (old.tabId === r.tabId && old.state === NoticeOpen) old.state = NoticeReplaced;
    const record: NoticeRecord = { noticeId: newNoticeId(), ...r, createdAt: now, expiresAt: now + r.expiresInMs, state: NoticeOpen, hidden: false };
    this.records.push(record);
    this.trim(r.taskId);
    await this.persist();
    return record;
  }

  /**
   * What the agent's resolve or dismiss may close: the open notice (its
   * reminder expired or not) of a tab of this task, and of tabId when one
   * is named; undefined otherwise (notice_not_found).
   */
  closable(taskId: string, noticeId: string, tabId: number | undefined): NoticeRecord | undefined {
    const r = this.open(noticeId);
    return r === undefined || r.taskId !== taskId || (tabId !== undefined && r.tabId !== tabId) ? undefined : r;
  }

  /** The agent's resolve or dismiss of a closable notice; undefined if it is not (or no longer) closable. */
  async close(taskId: string, noticeId: string, tabId: number | undefined, state: typeof NoticeResolved | typeof NoticeDismissed): Promise<NoticeRecord | undefined> {
    const r = this.closable(taskId, noticeId, tabId);
    if (r === undefined) return undefined;
    r.state = state;
    await this.persist();
    return r;
  }

  /** The task's notices (or one tab's), newest first. */
  status(taskId: string, tabId?: number): NoticeRecord[] {
    return this.live()
      .filter((n) => n.taskId === taskId && (tabId === undefined || n.tabId === tabId))
      .reverse();
  }

  /** The popup's Dismiss: hides the reminder only (the agent still sees it open, hidden_by_user). */
  async hide(noticeId: string): Promise<boolean> {
    const r = this.open(noticeId);
    if (r === undefined) return false;
    r.hidden = true;
    await this.persist();
    return true;
  }

  /** The open notice with this id (the popup's Open tab), if it is still open. */
  open(noticeId: string): NoticeRecord | undefined {
    return this.live().find((n) => n.noticeId === noticeId && n.state === NoticeOpen);
  }

  /** The open notices the popup shows (reminder not expired, not hidden), oldest first. */
  visible(): NoticeRecord[] {
    const now = this.clock.now();
    return this.live().filter((n) => !n.hidden && n.state === NoticeOpen && now < n.expiresAt);
  }

  /** The tab has an open notice (hidden or not, its reminder expired or not). */
  openFor(tabId: number): boolean {
    return this.live().some((n) => n.tabId === tabId && n.state === NoticeOpen);
  }

  /** The task finished (browser_finish or End task): its notices go. */
  async clearTask(taskId: string): Promise<void> {
    if (!this.records.some((n) => n.taskId === taskId)) return;
    this.records = this.records.filter((n) => n.taskId !== taskId);
    await this.persist();
  }

  /** The tab closed or left its task: its notices go. */
  async dropTab(tabId: number): Promise<void> {
    if (!this.records.some((n) => n.tabId === tabId)) return;
    this.records = this.records.filter((n) => n.tabId !== tabId);
    await this.persist();
  }

  /** Whether any notice (in any state) was made for the tab. */
  tracks(tabId: number): boolean {
    return this.records.some((n) => n.tabId === tabId);
  }

  /** Ownership may have changed (a tab was revoked): the badge counts again. */
  refresh(): void {
    this.announce();
  }

  /** The notices whose task still owns their tab. */
  private live(): NoticeRecord[] {
    return this.records.filter((n) => this.owned(n.taskId, n.tabId));
  }

  /** The notice as the protocol reports it (the message is never sent back). */
  ext(r: NoticeRecord): ExtNotice {
    const now = this.clock.now();
    const n: ExtNotice = {
      notice_id: r.noticeId,
      tab_id: r.tabId,
      reason: r.reason,
      state: r.state,
      origin: r.origin,
      age_ms: Math.max(0, now - r.createdAt),
      expires_in_ms: r.state === NoticeOpen ? Math.max(0, r.expiresAt - now) : 0,
    };
    if (r.hidden) n.hidden_by_user = true;
    return n;
  }

  /** Keeps the task's open notices and its newest closed ones. */
  private trim(taskId: string): void {
    const closed = this.records.filter((n) => n.taskId === taskId && n.state !== NoticeOpen);
    const drop = new Set(closed.slice(0, Math.max(0, closed.length - KEPT_CLOSED)));
    if (drop.size > 0) this.records = this.records.filter((n) => !drop.has(n));
  }

  private async persist(): Promise<void> {
    this.records = this.live();
    this.announce();
    await this.storage.set(NOTICES_KEY, this.records);
  }

  /** Reports the visible count, and again when the next reminder expires. */
  private announce(): void {
    this.changed(this.visible().length);
    this.cancelExpiry();
    const now = this.clock.now();
    const next = Math.min(...this.live().filter((n) => n.state === NoticeOpen && n.expiresAt > now).map((n) => n.expiresAt));
    if (Number.isFinite(next)) this.cancelExpiry = this.clock.after(next - now, () => this.announce());
  }
}

/** A fresh random notice id: protocol.HandlePrefixNotice and 16 random bytes in hex. */
function newNoticeId(): string {
  return HandlePrefixNotice + randomHex(16);
}

function isRecord(v: unknown): v is NoticeRecord {
  return typeof v === "object" && v !== null && "noticeId" in v && typeof v.noticeId === "string" && "taskId" in v && typeof v.taskId === "string" && "tabId" in v && typeof v.tabId === "number" && "expiresAt" in v && typeof v.expiresAt === "number";
}
