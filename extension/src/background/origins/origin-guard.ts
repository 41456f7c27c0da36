// The managed origin policy in the service worker: the host's policy (from
// the welcome), the checks steps and popups make with it, and the guard
// that stops the navigations the pages of owned tabs start. Source of
// truth: spec 000 ("a navigation the page itself starts to a denied origin
// is stopped and reported"; origin policy is kept on every route) and
// DESIGN.md "Origin policy" (links, redirects, scripts, child tabs).
//
// Observed in Chromium 156 (e2e probes): with Fetch.enable {resourceType:
// "Document", requestStage: "Request"} on an owned tab's debugger session,
// every document request pauses in Fetch.requestPaused before it leaves
// the browser: link clicks, location changes by script, and each hop of a
// server redirect (a new requestPaused carrying redirectedRequestId).
// Answering a refused top-frame request with Fetch.fulfillRequest
// {responseCode: 204} makes Chrome drop the navigation
// (webNavigation.onErrorOccurred net::ERR_ABORTED): the tab keeps its page,
// its document and its revision, and the refused origin never sees a
// request. (Fetch.failRequest BlockedByClient instead commits Chrome's
// error page under the refused URL.) A page restored from the back-forward
// cache makes no request at all, so history steps check their destination
// before they move (act/history.ts).
//
// Where Chrome refuses the debugger (the scripting route, spec 000: "The
// route keeps every Standard boundary: ... origin policy") nothing can
// hold a request. There the guard works from webNavigation: when the page
// starts a top-frame navigation to a refused origin it calls window.stop()
// in the document through chrome.scripting (which cancels a navigation
// that has not committed); when the navigation commits anyway it loads the
// tab's last admitted page again. (Not chrome.tabs.goBack: observed in
// Chromium 156, the back button skips an entry whose page navigated
// without user activation, which a scripted page did, so goBack went past
// it to about:blank.) Either way the step reports the stop. The
// refused origin may see the request there; scripted clicks on a link or
// submit button aimed at a refused origin are refused before anything is
// dispatched instead (pagework/scripting-route.ts).
//
// The guard has to be attached to catch anything, so while the policy
// constrains navigation it holds the debugger on every owned full-route
// tab instead of detaching it after idle work (a departure from DESIGN.md
// "Debugger idle": an idle-detached tab would let the next page-started
// navigation through). tab_only pages cannot be held (Chrome refuses the
// debugger there); the guard takes a tab up again when it commits a page
// the debugger can attach to.
//
// Local files are stopped with or without origin lists (issue 9): every
// top-frame navigation of an owned tab to file: (or view-source: of one),
// whoever started it. Observed in Chromium 156: a web page's own link,
// location change or window.open toward file: never starts (Chrome
// refuses it in the renderer: no webNavigation event, no request), and a
// server redirect to file: ends in net::ERR_UNSAFE_REDIRECT without a
// request for the file; a file: document request does pause in Fetch,
// and a navigation Chrome itself starts (chrome.tabs.update, the
// omnibox, history) reports onBeforeNavigate. Without origin lists or
// admitted local folders nothing intercepts, so the guard answers such a
// navigation from webNavigation by loading the tab's last admitted page
// (which replaces it, or takes the tab back from a file that committed
// first), and page work refuses a tab that shows a file meanwhile
// (page-work.ts). Under origin lists the file: document request pauses
// with every other document (refused, as no folder is admitted); with
// admitted folders it pauses as a file: request and the host decides.
//
// Local folders the user admits (policy.json local_files.allowed_roots,
// protocol/localfiles.go): a file: page can load any file, by frame,
// object, script, stylesheet or image, and only the host can say where a
// path leads. Observed in Chromium 156 (e2e probe, the extension loaded
// unpacked, which Chrome lets read file: URLs without asking): with
// Fetch.enable {urlPattern: "file:*", requestStage: "Request"} on the
// tab's session, every request of a file: page for a file pauses there
// first, on the tab's own session and whatever its type: the document,
// its stylesheets, scripts and images, its iframes', objects' and
// embeds' documents (each with its own frameId) and what those load; and
// Fetch.failRequest {errorReason: "BlockedByClient"} leaves such a frame
// on Chrome's error page, without the file. So while folders are
// admitted the guard holds the debugger on every owned tab (as it does
// under origin lists), pauses every file: request, and asks the host
// about each (local-files.ts): a refused top-frame navigation is stopped
// like a refused origin, a refused frame or subresource fails. Page work
// on a tab that shows a local file is done only when this attachment
// checked its document's request and has stayed on the tab since
// (readableFile), so everything the page loaded was checked; without the
// debugger (the scripting route) nothing can be, and such a tab gets no
// page work.
import {
  CodeLocalFileDenied,
  CodeOriginPolicyDenied,
  CodeOriginPolicyUnverifiable,
  LocalFileNoRoots,
  LocalFilePopup,
  LocalFileUnchecked,
  OutcomeNotStarted,
  RouteTabOnly,
} from "../../protocol/generated";
import { MaxOriginStops } from "../../protocol/generated";
import type { NativeWelcome, OriginPolicy, OriginStop, Outcome } from "../../protocol/generated";
import type { ChromeApi } from "../../chrome/api";
import type { Debuggers } from "../cdp/debuggers";
import { fieldsOf, strField } from "../cdp/read";
import type { TabSession } from "../cdp/session";
import { Failure, failure } from "../native/failure";
import type { Log } from "../log";
import { errorText } from "../log";
import type { LocalFileCheck } from "./local-files";
import { constrained, isFile, isLocalFile, isWeb, NO_POLICY, refusal, withoutFragment } from "./origins";
import type { Refusal } from "./origins";
import type { Ownership } from "../tabs/ownership";
import { routeOf } from "../pagework/route";

export type { OriginStop };

/** The failure of a step whose navigation the guard stopped: local_file_denied toward a local file, else origin_policy_denied. */
export function stopFailure(stop: OriginStop, outcome: Outcome, message: string): Failure {
  const code = isLocalFile(stop.url) ? CodeLocalFileDenied : CodeOriginPolicyDenied;
  return failure(code, message, outcome);
}

/** Pauses every document request of the session's frames before it is sent (origin lists). */
const DOCUMENTS = { urlPattern: "*", resourceType: "Document", requestStage: "Request" };
/** Pauses every request for a local file, of any type (admitted local folders). */
const LOCAL_FILES = { urlPattern: "file:*", requestStage: "Request" };

/** No host to ask: every local file is refused. */
const NO_HOST: LocalFileCheck = () => Promise.resolve({ code: CodeLocalFileDenied, reason: LocalFileNoRoots });

export class OriginGuard {
  private policy: OriginPolicy = NO_POLICY;
  /** The welcome's local_files: policy.json admits local folders, which the host decides on. */
  private localFiles = false;
  /** Per tab, the last top-frame file: document request the host admitted, with the attachment that paused it. */
  private readonly checkedRequest = new Map<number, { session: TabSession; url: string }>();
  /** Per tab, the file: document that committed from a checked request, with that attachment (readableFile). */
  private readonly checkedPage = new Map<number, { session: TabSession; url: string }>();
  /** The top frame's id per intercepting session: only its requests are navigations of the tab. */
  private readonly topFrames = new WeakMap<TabSession, Promise<string>>();
  private readonly listeners = new Map<number, Set<(stop: OriginStop) => void>>();
  /**
   * Stops no step was watching for, per tab, with the task that owned the
   * tab then, until that task's next result for it (protocol OriginStop).
   */
  private readonly unreported = new Map<number, { taskId: string; stop: OriginStop }[]>();
  /** The last top-frame page each owned tab committed that the policy admits: where a late stop takes it back. */
  private readonly admitted = new Map<number, string>();
  /**
   * Tabs a late stop is sending back to their admitted page: a refused
   * commit before that page commits again (it now redirects to a refused
   * origin, say) sends the tab to about:blank instead of around again.
   */
  private readonly returning = new Set<number>();

  constructor(
    private readonly api: ChromeApi,
    private readonly debuggers: Debuggers,
    private readonly ownership: Ownership,
    private readonly log: Log,
    /** The host's decision on a file: URL (local-files.ts). */
    private readonly askHost: LocalFileCheck = NO_HOST,
  ) {
    debuggers.onAttach((session) => this.intercept(session));
    debuggers.watch((tabId, sessionId, method, params) => {
      if (method === "Fetch.requestPaused") void this.decide(tabId, sessionId, params);
    });
    // Back from a page the debugger could not hold (chrome://, a refusal),
    // or newly owned without an explicit arm.
    api.webNavigation.onCommitted((d) => {
      if (d.frameId !== 0) return;
      this.committed(d.tabId, d.url);
      if (ownership.owner(d.tabId) === undefined) this.admitted.delete(d.tabId);
      else if (refusal(this.policy, d.url) === undefined) {
        this.admitted.set(d.tabId, d.url);
        this.returning.delete(d.tabId);
      }
      if (this.holding && ownership.owner(d.tabId) !== undefined && !debuggers.held(d.tabId)) void this.arm(d.tabId);
      void this.unguarded(d.tabId, d.url, true);
    });
    api.tabs.onRemoved((tabId) => {
      this.admitted.delete(tabId);
      this.checkedRequest.delete(tabId);
      this.checkedPage.delete(tabId);
      this.returning.delete(tabId);
      this.unreported.delete(tabId);
    });
    api.webNavigation.onBeforeNavigate((d) => {
      if (d.frameId === 0) void this.unguarded(d.tabId, d.url, false);
    });
  }

  get constrained(): boolean {
    return constrained(this.policy);
  }

  /** Whether the guard holds the debugger on every owned tab: origin lists constrain, or local folders are admitted. */
  get holding(): boolean {
    return this.constrained || this.localFiles;
  }

  /**
   * Takes the policy the host's welcome carries. A welcome without a
   * readable one never gets here: its decoding (host-connection.ts)
   * refuses the connection, since running unguarded on a policy nobody
   * could read would fail open.
   */
  welcomed(welcome: NativeWelcome): void {
    this.set(welcome.origins, welcome.local_files).catch((e: unknown) => this.log.warn(`origin policy: ${errorText(e)}`));
  }

  /**
   * The host's policy: attachments and holds follow it. A new host may
   * admit other folders, so no local page counts as checked any more.
   */
  async set(policy: OriginPolicy, localFiles = false): Promise<void> {
    this.policy = policy;
    this.localFiles = localFiles;
    this.checkedRequest.clear();
    this.checkedPage.clear();
    for (const tabId of this.ownedTabs()) {
      const session = this.debuggers.current(tabId);
      if (session !== undefined) await this.intercept(session).catch((e: unknown) => this.log.warn(`origin guard, tab ${tabId}: ${errorText(e)}`));
    }
    await this.sync();
  }

  /**
   * Holds every owned tab while the guard holds tabs (origin lists
   * constrain navigation, or local folders are admitted), and lets go of
   * holds that no longer apply (a tab reconciliation revoked is detached
   * at once: attachments are for owned tabs only).
   */
  async sync(): Promise<void> {
    for (const tabId of this.debuggers.heldTabs()) {
      if (this.ownership.owner(tabId) === undefined) await this.debuggers.release(tabId);
      else if (!this.holding) this.debuggers.unhold(tabId);
    }
    if (this.holding) await Promise.all(this.ownedTabs().map((tabId) => this.arm(tabId)));
  }

  /**
   * Attaches the guard to an owned tab while it holds tabs, and
   * resolves once it intercepts; a refusal leaves it
   * unguarded (logged). A hold already being made is awaited, not skipped:
   * an open's first load must not start before the guard is in place
   * (the blank tab's own commit may have begun the hold a moment before).
   */
  async arm(tabId: number): Promise<void> {
    if (!this.holding || this.ownership.owner(tabId) === undefined) return;
    const tab = await this.api.tabs.get(tabId);
    const url = tab === undefined ? "" : tab.url || tab.pendingUrl || "";
    // A new tab has no URL yet; the debugger attaches to it.
    if (tab === undefined || (url !== "" && routeOf(url) === RouteTabOnly)) return;
    try {
      await this.debuggers.hold(tabId);
    } catch (e) {
      this.log.warn(`origin guard: tab ${tabId} is not guarded: ${errorText(e)}`);
    }
  }

  /** Throws refused(url) when there is one: for web targets (a reload, a scripted click's link). */
  check(url: string): void {
    const f = this.refused(url);
    if (f !== undefined) throw f;
  }

  /**
   * Throws when an explicit target (a navigate step, a history
   * destination) is not admitted: a plain local file is the host's to
   * decide when local folders are admitted, anything else check's.
   */
  async admit(url: string): Promise<void> {
    if (!this.localFiles || !isFile(url)) return this.check(url);
    const r = await this.askHost(url);
    if (r !== undefined) throw failure(r.code, r.reason);
  }

  /**
   * The failure of a target the policy does not admit, or undefined;
   * outcome says how far the work got. Decided here alone, so a local
   * file is refused (a popup toward one, say): only admit asks the host.
   */
  refused(url: string, outcome: Outcome = OutcomeNotStarted): Failure | undefined {
    const r: Refusal | undefined = this.localFiles && isFile(url) ? { code: CodeLocalFileDenied, reason: LocalFilePopup } : refusal(this.policy, url);
    if (r === undefined) return undefined;
    const message = r.code === CodeOriginPolicyUnverifiable ? `the URL cannot be checked against the origin policy: ${r.reason}` : r.reason;
    return failure(r.code, message, outcome);
  }

  /** Calls stopped for each navigation of the tab the guard stops, until the returned function is called. */
  onStop(tabId: number, stopped: (stop: OriginStop) => void): () => void {
    const set = this.listeners.get(tabId) ?? new Set();
    this.listeners.set(tabId, set);
    set.add(stopped);
    return () => {
      set.delete(stopped);
      if (set.size === 0) this.listeners.delete(tabId);
    };
  }

  /**
   * Why page work may not read the tab's local page, or undefined when it
   * may (or url is no local file): the host admitted its document's
   * request, paused on the attachment the tab still has, so every file
   * the page loaded since was asked about too.
   */
  unreadableFile(tabId: number, url: string): string | undefined {
    if (!isLocalFile(url)) return undefined;
    if (!this.localFiles) return refusal(NO_POLICY, url)?.reason;
    const page = this.checkedPage.get(tabId);
    const session = this.debuggers.current(tabId);
    const same = page !== undefined && page.session === session && !page.session.detached && withoutFragment(page.url) === withoutFragment(url);
    return same ? undefined : LocalFileUnchecked;
  }

  /** Records which local page a top-frame commit shows, and whether its request was checked on this attachment. */
  private committed(tabId: number, url: string): void {
    const request = this.checkedRequest.get(tabId);
    this.checkedRequest.delete(tabId);
    this.checkedPage.delete(tabId);
    const session = this.debuggers.current(tabId);
    if (request === undefined || session === undefined || !isFile(url) || request.session !== session || session.detached) return;
    if (withoutFragment(request.url) === withoutFragment(url)) this.checkedPage.set(tabId, { session, url });
  }

  /** Whether the tab's document requests pause in Fetch (the debugger guard). */
  private intercepting(tabId: number): boolean {
    const session = this.debuggers.current(tabId);
    return session !== undefined && this.topFrames.has(session);
  }

  /**
   * The guard without the debugger: a refused top-frame navigation of an
   * owned tab nothing intercepts is stopped before it commits when
   * window.stop() still can, else taken back after its commit. A refused
   * commit on an intercepting tab escaped Fetch (a page restored from the
   * back-forward cache by the page's own history.back() makes no request)
   * and is taken back the same way.
   */
  private async unguarded(tabId: number, url: string, committed: boolean): Promise<void> {
    // A local file is stopped with or without origin lists (issue 9):
    // where nothing intercepts (no origin lists, no admitted folders, or
    // no attachment) this is the only guard.
    const local = isLocalFile(url);
    if ((!local && (!this.constrained || !isWeb(url))) || this.ownership.owner(tabId) === undefined) return;
    if (!committed && this.intercepting(tabId)) return;
    // A plain local file is the host's to decide when folders are
    // admitted; one it admits may stay (without this guard's Fetch it
    // gets no page work, unreadableFile).
    if (committed && this.localFiles && isFile(url) && this.unreadableFile(tabId, url) === undefined) return; // checked as it was requested
    const r = this.localFiles && isFile(url) ? await this.askHost(url) : refusal(this.policy, url);
    if (r === undefined) return;
    // A local file is not left to window.stop(), which needs
    // chrome.scripting and was not seen to stop a navigation Chrome itself
    // started (the only kind that reaches a file from a web page): the
    // admitted page is loaded at once, which replaces the pending one.
    const reload = committed || local;
    // The page to go back to must pass the policy in force now (it was
    // recorded under the policy of its commit, perhaps none yet). Before
    // the commit the tab still shows its page, which is the one to keep
    // when none was recorded (an open without origin lists can commit its
    // page before the tab is recorded as owned).
    const showing = reload && !committed ? (await this.api.tabs.get(tabId))?.url : undefined;
    const last = this.admitted.get(tabId) ?? (showing || undefined);
    const back = last !== undefined && !this.returning.has(tabId) && refusal(this.policy, last) === undefined ? last : "about:blank";
    // The page shown is the one to go back to from now on: the refused
    // navigation may still commit after this stop (observed in Chromium
    // 156: chrome.tabs.update to file: committed after the guard's
    // tabs.navigate back), and that late stop has no page shown to read,
    // which sent the tab to about:blank.
    if (back !== "about:blank" && this.admitted.get(tabId) === undefined) this.admitted.set(tabId, back);
    const how = `${committed ? "it committed before it could be stopped; " : ""}AgentTab loaded ${back} again`;
    const stop: OriginStop = { url, reason: reload ? `${r.reason} (${how})` : r.reason, ...(reload ? { late: true } : {}) };
    this.log.info(`origin guard (no debugger) stopped tab ${tabId}: ${stop.reason}`);
    this.tell(tabId, stop);
    try {
      if (!reload) await this.api.scripting.stopLoading(tabId);
      else {
        if (committed && back !== "about:blank") this.returning.add(tabId);
        await this.api.tabs.navigate(tabId, back);
      }
    } catch (e) {
      this.log.warn(`origin guard, tab ${tabId}: ${errorText(e)}`);
    }
  }

  /**
   * Tells the steps watching the tab; with none watching, the owner's next
   * result for the tab reports it. A late stop replaces the earlier report
   * of the same navigation (window.stop() came too late for it).
   */
  private tell(tabId: number, stop: OriginStop): void {
    const watching = [...(this.listeners.get(tabId) ?? [])];
    for (const l of watching) l(stop);
    const taskId = this.ownership.owner(tabId)?.taskId;
    if (watching.length > 0 || taskId === undefined) return;
    const earlier = (this.unreported.get(tabId) ?? []).filter((u) => !(stop.late === true && u.stop.url === stop.url && u.stop.late !== true));
    this.unreported.set(tabId, [...earlier, { taskId, stop }].slice(-MaxOriginStops));
  }

  /**
   * The stops no step reported since the last call, for the task's next
   * result on the tab; empties the list. Stops from when another task
   * owned the tab are dropped, never shown to the new owner.
   */
  takeUnreported(tabId: number, taskId: string): OriginStop[] {
    const stops = (this.unreported.get(tabId) ?? []).filter((u) => u.taskId === taskId).map((u) => u.stop);
    this.unreported.delete(tabId);
    return stops;
  }

  private ownedTabs(): number[] {
    return this.ownership.taskIds().flatMap((id) => [...(this.ownership.task(id)?.tabs.keys() ?? [])]);
  }

  /**
   * Starts the interception on an attachment while the guard holds tabs:
   * document requests under origin lists, file: requests of any type
   * while local folders are admitted, or both; with neither it ends the
   * interception. Prerendering is switched off with it: a prerendered page
   * loads in a frame of its own and is shown without a new request, so the
   * top frame's interception would never see it. (Chromium 156 accepts
   * Page.setPrerenderingAllowed; these headless runs never prerender, so
   * its effect was not observed here.)
   */
  private async intercept(session: TabSession): Promise<void> {
    if (!this.holding) {
      if (!this.topFrames.delete(session)) return;
      await Promise.all([session.send("Fetch.disable", {}, { duringDialog: true }), session.send("Page.setPrerenderingAllowed", { isAllowed: true })]);
      return;
    }
    const top = session.send("Page.getFrameTree").then((r) => strField(fieldsOf(fieldsOf(r["frameTree"], "frameTree")["frame"], "frameTree.frame"), "id", "frame"));
    this.topFrames.set(session, top);
    const patterns = [...(this.constrained ? [DOCUMENTS] : []), ...(this.localFiles ? [LOCAL_FILES] : [])];
    await Promise.all([top, session.send("Fetch.enable", { patterns }, { duringDialog: true }), session.send("Page.setPrerenderingAllowed", { isAllowed: false })]);
  }

  /**
   * Answers one paused request: let it go, stop a top-frame navigation
   * the policy refuses, or fail a local file the host refuses in a frame
   * or as a subresource. A request paused in an iframe's own session
   * (interception is only enabled on the tab's) is decided the same way:
   * an unanswered one would hang its frame.
   */
  private async decide(tabId: number, sessionId: string | undefined, params: unknown): Promise<void> {
    const session = this.debuggers.current(tabId);
    if (session === undefined) return;
    let requestId: string;
    let url: string;
    let frameId: string;
    let document: boolean;
    try {
      const p = fieldsOf(params, "Fetch.requestPaused");
      requestId = strField(p, "requestId", "Fetch.requestPaused");
      url = strField(fieldsOf(p["request"], "Fetch.requestPaused.request"), "url", "request");
      frameId = strField(p, "frameId", "Fetch.requestPaused");
      // A subresource carries the id of the frame that loads it: only a
      // document request of the top frame is the tab's navigation.
      document = strField(p, "resourceType", "Fetch.requestPaused") === "Document";
    } catch (e) {
      this.log.warn(`origin guard: ${errorText(e)}`);
      return;
    }
    let topId: string | undefined;
    try {
      topId = await this.topFrames.get(session);
    } catch (e) {
      // The attachment went away meanwhile (Chrome took it back, the tab
      // closed): nothing is left to answer, and Chrome lets the paused
      // request go with the session. Not a stop to report.
      if (session.detached) return;
      this.log.warn(`origin guard, tab ${tabId}: the top frame's id is unknown (${errorText(e)}); every document request of the tab's own session counts as its navigation`);
    }
    // The tab's own navigation: a document request of its top frame. Without
    // the top frame's id a same-process iframe's document cannot be told from
    // it, so each document request of the tab's session is decided as one (the
    // safe side: a refused one is stopped and reported); a subresource, or a
    // document of a child session's frame, never is one.
    const top = document && sessionId === undefined && (topId === undefined || frameId === topId);
    const owned = this.ownership.owner(tabId) !== undefined;
    if (isLocalFile(url)) {
      const r = this.localFiles && isFile(url) ? await this.askHost(url) : refusal(this.policy, url);
      // Recorded before Chrome hears the answer, so the commit finds it;
      // only a request surely of the top frame makes its page readable.
      if (r === undefined && top && topId !== undefined) this.checkedRequest.set(tabId, { session, url });
      return this.answer(tabId, session, sessionId, requestId, r === undefined ? undefined : { url, reason: r.reason }, top && owned);
    }
    const r = top && owned ? refusal(this.policy, url) : undefined;
    return this.answer(tabId, session, sessionId, requestId, r === undefined ? undefined : { url, reason: r.reason }, true);
  }

  /**
   * Sends the answer to a paused request: let it go, or refuse it. A
   * refused navigation of the tab is stopped with an empty 204 and
   * reported; anything else refused (a frame's document, a subresource)
   * fails as blocked and is only logged.
   */
  private async answer(tabId: number, session: TabSession, sessionId: string | undefined, requestId: string, stop: OriginStop | undefined, navigation: boolean): Promise<void> {
    let method = "Fetch.continueRequest";
    let answer: object = { requestId };
    if (stop !== undefined && navigation) {
      this.log.info(`origin guard stopped tab ${tabId}: ${stop.reason}`);
      // Told before Chrome hears the answer, so a step sees the stop before the aborted navigation.
      this.tell(tabId, stop);
      [method, answer] = ["Fetch.fulfillRequest", { requestId, responseCode: 204 }];
    } else if (stop !== undefined) {
      this.log.info(`origin guard refused a load of tab ${tabId}: ${stop.reason}`);
      [method, answer] = ["Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }];
    }
    await session.send(method, answer, { sessionId, duringDialog: true }).catch((e: unknown) => this.log.warn(`origin guard, ${method} on tab ${tabId}: ${errorText(e)}`));
  }
}
