// Following the navigation a step causes. Source of truth: issue 3
// ("navigation: committed, same_document, refused, abandoned, unknown or
// null, followed for up to 10 s inside the step") and spec 000
// (webNavigation follows top-frame commits, same-document changes and
// errors). Only the top frame (frameId 0) counts, as for page revisions.
import { NavigationAbandoned, NavigationCommitted, NavigationRefused, NavigationSameDocument, NavigationUnknown } from "../../protocol/generated";
import type { Navigation } from "../../protocol/generated";
import type { ChromeApi, NavigationDetails } from "../../chrome/api";
import type { Clock } from "../clock";
import type { OriginStop } from "../origins/origin-guard";

/** How long a step follows the navigation it started. */
export const FOLLOW_MS = 10_000;
/**
 * How long after a click or key press a navigation may still begin. The
 * page asks for a link's or a form's navigation while it handles the
 * input, and the debugger reports the request within 0–2 ms of the
 * input's acknowledgement (Pages.onNavigationStart); the rest is margin.
 */
export const GRACE_MS = 25;
/**
 * After a commit, how long the step waits for DOMContentLoaded (or the
 * load's completion: a page restored from the back-forward cache reports
 * onCommitted and onCompleted only, observed in Chromium 156).
 */
export const SETTLE_MS = 1_000;

/** How long an aborted navigation waits for the commit of one that replaced it. */
const ABORT_GRACE_MS = 500;

/** Chrome's error for a navigation that was dropped: a download, a 204, or a newer navigation. */
const ABORTED = "net::ERR_ABORTED";

export class NavigationWatch {
  private began = false;
  private result: Navigation | undefined;
  private loaded = false;
  private expired = false;
  /** A JavaScript dialog (beforeunload) holds the navigation until a dialog step answers it. */
  private held = false;
  /** The navigation the origin guard stopped (origin-guard.ts), if it did. */
  refusal: OriginStop | undefined;
  private readonly stops: (() => void)[] = [];
  private wake: () => void = () => undefined;

  /**
   * Listens from now on: create it before the step dispatches anything.
   * started reports, sooner than webNavigation, that the page asked to
   * navigate its top frame; refusals, that the origin guard stopped a
   * navigation of the tab (which Chrome then reports as aborted).
   */
  constructor(
    api: ChromeApi,
    private readonly clock: Clock,
    tabId: number,
    started: (began: () => void) => () => void = () => () => undefined,
    dialogs: (opened: () => void) => () => void = () => () => undefined,
    refusals: (stopped: (stop: OriginStop) => void) => () => void = () => () => undefined,
  ) {
    const top = (f: (d: NavigationDetails) => void) => (d: NavigationDetails) => {
      if (d.tabId !== tabId || d.frameId !== 0) return;
      f(d);
      this.wake();
    };
    const nav = api.webNavigation;
    this.stops.push(
      started(() => {
        this.began = true;
        this.wake();
      }),
      dialogs(() => {
        this.held = true;
        this.wake();
      }),
      refusals((stop) => {
        this.refusal = stop;
        this.began = true;
        this.wake();
      }),
      clock.after(FOLLOW_MS, () => {
        this.expired = true;
        this.wake();
      }),
      nav.onBeforeNavigate(top(() => (this.began = true))),
      nav.onCommitted(top(() => (this.result = NavigationCommitted))),
      nav.onHistoryStateUpdated(top(() => (this.result ??= NavigationSameDocument))),
      nav.onReferenceFragmentUpdated(top(() => (this.result ??= NavigationSameDocument))),
      nav.onErrorOccurred((d) => {
        if (d.tabId !== tabId || d.frameId !== 0 || this.result === NavigationCommitted) return;
        this.result = d.error === ABORTED ? NavigationAbandoned : NavigationRefused;
        this.wake();
      }),
      nav.onDOMContentLoaded(top(() => (this.loaded = true))),
      nav.onCompleted(top(() => (this.loaded = true))),
      api.tabs.onRemoved((id) => {
        if (id !== tabId) return;
        this.result ??= NavigationUnknown;
        this.loaded = true;
        this.wake();
      }),
    );
  }

  /**
   * What the step did to the top document. expected: the step itself
   * navigates (navigate, reload, back, forward), so it waits for the
   * outcome; otherwise a navigation that has not begun within graceMs of
   * inputEnded (the step's last input, when it knows it; else of now) is
   * none (undefined). A dialog that opens meanwhile ends the wait: the
   * navigation stays pending behind it (unknown). A navigation the origin
   * guard stopped, and nothing committed after it, is refused.
   */
  async settle(expected: boolean, graceMs: number, inputEnded?: number): Promise<Navigation | undefined> {
    if (!expected && !this.began && this.result === undefined) {
      const left = inputEnded === undefined ? graceMs : graceMs - (this.clock.now() - inputEnded);
      await this.until(() => this.began || this.result !== undefined || this.held, left);
      if (!this.began && this.result === undefined) return undefined;
    }
    await this.until(() => this.result !== undefined || this.expired || this.held);
    // Observed in Chromium 156 leaving chrome://settings for a web page:
    // an ERR_ABORTED for the top frame arrives before the commit of the
    // navigation that replaced it. A commit that follows soon wins.
    // The guard's own stop is that abort: nothing replaces it.
    if (this.result === NavigationAbandoned && this.refusal === undefined) await this.until(() => this.result === NavigationCommitted, ABORT_GRACE_MS);
    const result = this.result ?? NavigationUnknown;
    if (this.refusal !== undefined && (this.refusal.late === true || (result !== NavigationCommitted && result !== NavigationSameDocument))) return NavigationRefused;
    if (result === NavigationCommitted) await this.until(() => this.loaded, SETTLE_MS);
    return result;
  }

  stop(): void {
    for (const s of this.stops) s();
  }

  /** Resolves when done() holds (checked on every event) or after ms, if given. */
  private until(done: () => boolean, ms?: number): Promise<void> {
    if (done() || (ms !== undefined && ms <= 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const cancel =
        ms === undefined
          ? () => undefined
          : this.clock.after(ms, () => {
              this.wake = () => undefined;
              resolve();
            });
      this.wake = () => {
        if (!done()) return;
        cancel();
        this.wake = () => undefined;
        resolve();
      };
    });
  }
}
