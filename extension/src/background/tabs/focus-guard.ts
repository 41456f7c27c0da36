// The user's active tab and focused window are the user's: AgentTab never
// activates or focuses anything of a task (spec 001, "never focuses"), and
// when Chrome does it for a task, this guard gives back at once what the
// user had. It changes the user's view only to restore it: the tab the
// user's window showed, the window the user was in; never a task's tab or
// window.
//
// Observed in Chromium 156 headful (Xvfb + openbox, e2e/headful_focus_test.go):
// - A page that kept its own reference to window.open (the trap in
//   act/open-trap.ts cannot replace it) opens its popup, on a click
//   dispatched through the debugger, as the ACTIVE tab of the opener's
//   window: in the user's window, the user's tab went to the background.
//   chrome.tabs reports that child's openerTabId as the tab that was active
//   before (the user's), so only webNavigation.onCreatedNavigationTarget
//   names the task's tab as its source (children.ts tells the guard).
// - Input.dispatchMouseEvent (mousePressed) on a tab of an unfocused window,
//   such as a task's placement new_window, raises that window and gives it
//   the OS focus; so does a foreground popup opened there.
// Neither can be refused from the extension, so both are undone: a gesture
// (act/child-gesture.ts) and a reported child arm the window they happen
// in for a moment, and focus arriving at an armed window is given back.
import { NO_WINDOW } from "../../chrome/api";
import type { ChromeApi } from "../../chrome/api";
import type { Clock } from "../clock";
import { errorText } from "../log";
import type { Log } from "../log";
import type { Ownership } from "./ownership";

/**
 * How long after a gesture ends, or a child is reported, Chrome's focus
 * and activation events are taken as caused by it (they arrive after the
 * CDP command or the report; the step's popups settle within 3 s).
 */
const CAUSED_MS = 3_000;

/**
 * Observed in Chromium 156 on X11: windows.onFocusChanged reports
 * NO_WINDOW just before a switch from one Chrome window to another (the
 * chrome.windows documentation says so for some Linux window managers).
 * A switch within this long after NO_WINDOW still comes from the window
 * focused before.
 */
const SWITCH_MS = 500;

export class FocusGuard {
  /** Per window: its active tab, and the one before it. */
  private readonly active = new Map<number, { now: number; before: number | undefined }>();
  /** The window the user is in (the last real focus), and when the focus last left every Chrome window. */
  private userWindow = NO_WINDOW;
  private leftAt: number | undefined;
  /** Children of owned tabs, until when their activation is Chrome's doing. */
  private readonly children = new Map<number, number>();
  /** Windows where a task's gesture or popup may take the focus, until when. */
  private readonly armed = new Map<number, number>();
  private readonly inFlight = new Map<number, number>();
  /** Windows the user asked to see (the popup's Open tab), until when: their focus is never given back. */
  private readonly allowed = new Map<number, number>();

  constructor(
    private readonly api: ChromeApi,
    private readonly ownership: Ownership,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {
    api.userView.onActivated((tabId, windowId) => this.activated(tabId, windowId));
    api.userView.onFocusChanged((windowId) => this.focusChanged(windowId));
  }

  /** Reads the user's view once at the worker's start (events only tell changes). */
  async load(): Promise<void> {
    const [tabs, focused] = await Promise.all([this.api.userView.activeTabs(), this.api.userView.focusedWindow()]);
    for (const t of tabs) if (!this.active.has(t.windowId)) this.active.set(t.windowId, { now: t.tabId, before: undefined });
    if (this.userWindow === NO_WINDOW) this.userWindow = focused;
  }

  /** A task's gesture runs in windowId until the returned function is called. */
  gesture(windowId: number): () => void {
    this.inFlight.set(windowId, (this.inFlight.get(windowId) ?? 0) + 1);
    return () => {
      const n = (this.inFlight.get(windowId) ?? 1) - 1;
      if (n > 0) this.inFlight.set(windowId, n);
      else this.inFlight.delete(windowId);
      this.arm(windowId);
    };
  }

  /** Chrome reported tabId, in windowId, as opened by an owned tab's page. */
  child(tabId: number, windowId: number): void {
    this.children.set(tabId, this.clock.now() + CAUSED_MS);
    this.arm(windowId);
    const w = this.active.get(windowId);
    // Chrome may have activated it before the report arrived.
    if (w?.now === tabId && w.before !== undefined) this.giveTabBack(w.before);
  }

  /**
   * The user clicked Open tab on a notice (popup/notice-action.ts): the
   * worker is about to activate tabId and focus windowId for them, the
   * only focus AgentTab ever causes. That activation and focus are the
   * user's, not a task's, so the guard must not undo them, even in a
   * window a task's gesture armed a moment ago.
   */
  allowUserOpen(tabId: number, windowId: number): void {
    this.children.delete(tabId);
    this.allowed.set(windowId, this.clock.now() + CAUSED_MS);
  }

  private arm(windowId: number): void {
    this.armed.set(windowId, Math.max(this.armed.get(windowId) ?? 0, this.clock.now() + CAUSED_MS));
  }

  private isArmed(windowId: number): boolean {
    const allowed = this.allowed.get(windowId);
    if (allowed !== undefined && allowed >= this.clock.now()) return false;
    return (this.inFlight.get(windowId) ?? 0) > 0 || (this.armed.get(windowId) ?? 0) >= this.clock.now();
  }

  private activated(tabId: number, windowId: number): void {
    const w = this.active.get(windowId);
    this.active.set(windowId, { now: tabId, before: w?.now });
    const until = this.children.get(tabId);
    if (until !== undefined && until >= this.clock.now() && w !== undefined && w.now !== tabId) this.giveTabBack(w.now);
  }

  /** Gives the user's tab back its place; a tab of a task is left as it is. */
  private giveTabBack(tabId: number): void {
    if (this.ownership.owner(tabId) !== undefined) return;
    this.api.userView.giveTabBack(tabId).catch((e: unknown) => this.log.warn(`giving tab ${tabId} back its place: ${errorText(e)}`));
  }

  private focusChanged(windowId: number): void {
    const now = this.clock.now();
    if (windowId === NO_WINDOW) {
      this.leftAt = now;
      return;
    }
    const switched = this.leftAt === undefined || now - this.leftAt <= SWITCH_MS;
    this.leftAt = undefined;
    const from = this.userWindow;
    if (windowId !== from && from !== NO_WINDOW && switched && this.isArmed(windowId)) {
      this.api.userView.giveFocusBack(from).catch((e: unknown) => this.log.warn(`giving the focus back to window ${from}: ${errorText(e)}`));
      return;
    }
    this.userWindow = windowId;
  }
}
