// chrome.debugger attachments of owned tabs. Source of truth: spec 000
// ("Attachments are lazy, limited to owned tabs, reused briefly, and
// detached after idle work") and DESIGN.md "Debugger idle": detach 60 s
// after the last command on a tab, and at once on finish or revocation.
// Callers ask only for tabs they checked are owned (page-work.ts). While
// the managed origin policy constrains navigation, the origin guard holds
// the attachments of owned tabs instead (origin-guard.ts says why).
import { CodeDebuggerUnavailable, CodeDialogOpen, OutcomeNotStarted } from "../../protocol/generated";
import type { ChromeApi } from "../../chrome/api";
import type { Clock } from "../clock";
import { NETWORK_ENABLE } from "./network";
import { Failure } from "../native/failure";
import type { Log } from "../log";
import { errorText } from "../log";
import { CommandTimeout, TabSession } from "./session";

export const IDLE_DETACH_MS = 60_000;

/**
 * After Chrome refuses the debugger on a tab, AgentTab tries again only
 * after this long or the tab's next navigation (spec 000): every attach
 * flashes Chrome's debugging banner.
 */
export const REFUSAL_RETRY_MS = 30_000;

/**
 * How long Page.enable may take on attach. Observed in Chromium 156: a
 * dialog that opened while no debugger was attached is not reported on
 * attach, and Page.enable then waits for it to be answered.
 */
const SETUP_MS = 3_000;

interface Entry {
  session: Promise<TabSession>;
  busy: number;
  cancelIdle: () => void;
  /** Kept attached, never idle-detached, until released (the origin guard's, origin-guard.ts). */
  held: boolean;
}

export class Debuggers {
  private readonly tabs = new Map<number, Entry>();
  private readonly live = new Map<number, TabSession>();
  private readonly watchers = new Set<(tabId: number, sessionId: string | undefined, method: string, params: unknown) => void>();
  /** Tabs where Chrome refused the debugger: when, and the answer to repeat. */
  private readonly refusals = new Map<number, { at: number; failure: Failure }>();
  private readonly setups: ((session: TabSession) => Promise<void>)[] = [];
  private readonly sessionSetups: ((session: TabSession, sessionId: string | undefined) => Promise<void>)[] = [];
  /** Why no tab may be attached now (the Cancel on Chrome's debugging banner); main.ts sets it. */
  private attachRefusal: () => Failure | undefined = () => undefined;

  constructor(
    private readonly api: ChromeApi,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {
    api.debugger.onEvent((source, method, params) => {
      const session = this.live.get(source.tabId);
      if (session === undefined) {
        // An earlier worker's attachment outlives it; one that still
        // intercepts documents (origin-guard.ts) would hold the tab's
        // navigations forever, with nobody left to answer. Detaching lets
        // them go.
        if (method === "Fetch.requestPaused") void this.api.debugger.detach(source.tabId).catch(() => undefined);
        return;
      }
      session.handle(source.sessionId, method, params);
      for (const w of [...this.watchers]) w(source.tabId, source.sessionId, method, params);
    });
    api.debugger.onDetach((tabId, reason) => this.forget(tabId, reason));
    api.webNavigation.onCommitted((d) => {
      if (d.frameId === 0) this.refusals.delete(d.tabId);
    });
  }

  /**
   * Refuses every new attachment while refusal answers a Failure: after
   * the user clicked Cancel on Chrome's "started debugging this browser"
   * banner, AgentTab never attaches again by itself (not for page work,
   * not for the origin guard's holds) until the user resumes (issue 12).
   */
  refuseAttachWhile(refusal: () => Failure | undefined): void {
    this.attachRefusal = refusal;
  }

  /** Runs f with the tab's session, attaching first when there is none; the idle timer waits while f runs. */
  async use<T>(tabId: number, f: (s: TabSession) => Promise<T>): Promise<T> {
    const entry = this.entry(tabId);
    entry.busy++;
    entry.cancelIdle();
    try {
      return await f(await entry.session);
    } finally {
      entry.busy--;
      if (entry.busy === 0 && !entry.held && this.tabs.get(tabId) === entry) this.armIdle(tabId, entry);
    }
  }

  /** Attaches when needed and keeps the attachment until release; fails like use() when Chrome refuses. */
  async hold(tabId: number): Promise<TabSession> {
    const entry = this.entry(tabId);
    entry.held = true;
    entry.cancelIdle();
    return entry.session;
  }

  /** Whether the tab's attachment is held (or being made for a hold). */
  held(tabId: number): boolean {
    return this.tabs.get(tabId)?.held === true;
  }

  /** The tabs whose attachments are held. */
  heldTabs(): number[] {
    return [...this.tabs].filter(([, e]) => e.held).map(([tabId]) => tabId);
  }

  /** Lets a held attachment go idle again (detached IDLE_DETACH_MS after its last command). */
  unhold(tabId: number): void {
    const entry = this.tabs.get(tabId);
    if (entry === undefined || !entry.held) return;
    entry.held = false;
    if (entry.busy === 0) this.armIdle(tabId, entry);
  }

  /** Adds a step every new attachment runs after its own set-up; a failure fails the attachment. */
  onAttach(setUp: (session: TabSession) => Promise<void>): void {
    this.setups.push(setUp);
  }

  /**
   * Adds a step every session of an attached tab runs with its own set-up:
   * the tab's own (sessionId undefined; a failure fails the attachment) and
   * each out-of-process iframe's (a failure is logged).
   */
  onSession(setUp: (session: TabSession, sessionId: string | undefined) => Promise<void>): void {
    this.sessionSetups.push(setUp);
  }

  /** Listens to the events of every attached tab, including sessions attached later. */
  watch(listener: (tabId: number, sessionId: string | undefined, method: string, params: unknown) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** The tab's session when one is attached (for state a read may report, like an open dialog). */
  current(tabId: number): TabSession | undefined {
    return this.live.get(tabId);
  }

  /** Detaches at once (finish, revocation); work still running fails with DebuggerDetached. */
  /** Detaches every tab (the user turned automation off, DESIGN.md "Automation switch"). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.tabs.keys()].map((tabId) => this.release(tabId)));
  }

  async release(tabId: number): Promise<void> {
    const entry = this.tabs.get(tabId);
    if (entry === undefined) return;
    this.forget(tabId, "released");
    await this.api.debugger.detach(tabId).catch(() => undefined);
  }

  /** Chrome's remembered refusal on the tab, while it still stands (until REFUSAL_RETRY_MS or a navigation). */
  private refusal(tabId: number): Failure | undefined {
    const refused = this.refusals.get(tabId);
    if (refused === undefined || this.clock.now() - refused.at >= REFUSAL_RETRY_MS) return undefined;
    const d = refused.failure.detail;
    const ago = Math.round((this.clock.now() - refused.at) / 1000);
    return new Failure(d.code, d.outcome, `${d.message} (${ago} s ago; not tried again until ${REFUSAL_RETRY_MS / 1000} s have passed or the tab navigates)`, d.recovery);
  }

  /** The tab's entry, attaching for a new one; a refusal is repeated until REFUSAL_RETRY_MS or a navigation. */
  private entry(tabId: number): Entry {
    const existing = this.tabs.get(tabId);
    if (existing !== undefined) return existing;
    const refused = this.attachRefusal() ?? this.refusal(tabId);
    if (refused !== undefined) throw refused;
    const entry: Entry = { session: this.attach(tabId), busy: 0, cancelIdle: () => undefined, held: false };
    this.tabs.set(tabId, entry);
    entry.session.catch(() => {
      if (this.tabs.get(tabId) === entry) this.tabs.delete(tabId);
    });
    return entry;
  }

  private forget(tabId: number, reason: string): void {
    this.tabs.get(tabId)?.cancelIdle();
    this.tabs.delete(tabId);
    this.live.get(tabId)?.end(reason);
    this.live.delete(tabId);
  }

  private armIdle(tabId: number, entry: Entry): void {
    entry.cancelIdle = this.clock.after(IDLE_DETACH_MS, () => {
      // A dialog that opened under AgentTab is only answerable through
      // this attachment (a new one is never told about it), so it stays.
      if (this.live.get(tabId)?.dialog !== undefined) return this.armIdle(tabId, entry);
      if (this.tabs.get(tabId) === entry && entry.busy === 0 && !entry.held) void this.release(tabId);
    });
  }

  private async attach(tabId: number): Promise<TabSession> {
    const refuse = (e: unknown): Failure => {
      const failure = unavailable(e);
      this.refusals.set(tabId, { at: this.clock.now(), failure });
      return failure;
    };
    try {
      await this.api.debugger.attach(tabId);
    } catch (e) {
      // The attachment of an earlier service worker of this extension
      // outlives it; only our own can be detached, anything else refuses.
      if (!errorText(e).includes("already attached")) throw refuse(e);
      try {
        await this.api.debugger.detach(tabId);
        await this.api.debugger.attach(tabId);
      } catch (again) {
        throw refuse(again);
      }
    }
    this.refusals.delete(tabId);
    // Chrome can also take back an attachment it gave (session.ts says
    // when): that is a refusal like the attach's own, remembered, and the
    // session is let go; the command's caller gets debugger_unavailable
    // and falls back to the scripting route.
    const session = new TabSession(this.api, this.clock, tabId, this.log, (e) => {
      this.refusals.set(tabId, { at: this.clock.now(), failure: unavailable(e) });
      if (this.live.get(tabId) === session) void this.release(tabId);
    });
    this.live.set(tabId, session);
    session.network.follow(session);
    session.on("Target.attachedToTarget", (_parent, p) => {
      const child = typeof p["sessionId"] === "string" ? p["sessionId"] : undefined;
      if (child !== undefined && session.children.has(child)) void this.setUpChild(session, child);
    });
    try {
      await Promise.all([
        session.send("Page.enable", {}, { timeoutMs: SETUP_MS }),
        // notes/chromium.md Trap 1: without focus emulation every
        // mouseMoved on a background tab takes about 5 s.
        session.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
        session.send("Target.setAutoAttach", AUTO_ATTACH),
        session.send("Network.enable", NETWORK_ENABLE),
        ...this.sessionSetups.map((setUp) => setUp(session, undefined)),
      ]);
      for (const setUp of this.setups) await setUp(session);
    } catch (e) {
      this.forget(tabId, "setup failed");
      await this.api.debugger.detach(tabId).catch(() => undefined);
      if (e instanceof CommandTimeout) {
        throw new Failure(
          CodeDialogOpen,
          OutcomeNotStarted,
          "the page does not answer: a JavaScript dialog it opened while AgentTab was not attached may be waiting, or the page is busy",
          "Ask the user to answer the dialog in Chrome, or reload or close the tab.",
        );
      }
      throw unavailable(e);
    }
    return session;
  }

  // Out-of-process iframes: Page.enable reports their dialogs; auto-attach
  // reaches the iframes nested in them.
  private async setUpChild(session: TabSession, sessionId: string): Promise<void> {
    try {
      await Promise.all([
        session.send("Page.enable", {}, { sessionId, duringDialog: true }),
        session.send("Target.setAutoAttach", AUTO_ATTACH, { sessionId, duringDialog: true }),
        session.send("Network.enable", NETWORK_ENABLE, { sessionId, duringDialog: true }),
        ...this.sessionSetups.map((setUp) => setUp(session, sessionId)),
      ]);
    } catch (e) {
      this.log.warn(`setting up an iframe session: ${errorText(e)}`);
    }
  }
}

// Out-of-process iframes only (not workers), attached as flat sessions
// that chrome.debugger addresses as {tabId, sessionId} (Chrome 125+;
// checked in Chromium 156).
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true, filter: [{ type: "iframe", exclude: false }] };

function unavailable(e: unknown): Failure {
  return new Failure(
    CodeDebuggerUnavailable,
    OutcomeNotStarted,
    `Chrome refused to attach AgentTab's debugger to the tab: ${errorText(e)}`,
    `Close DevTools or another debugging extension on this tab, or open the page in a new task tab; AgentTab tries the debugger again after ${REFUSAL_RETRY_MS / 1000} s or the tab's next navigation.`,
  );
}
