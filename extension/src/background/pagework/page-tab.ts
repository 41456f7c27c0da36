// Page work on owned tabs: the debugger session, the frames, the page
// agent in each frame, and the refs each snapshot showed.
//
// Refs are bound to Chrome's document (frame id + loader id) and checked
// against the page agent's registry of that document (refs.ts). The
// registry lives in an isolated world that survives the debugger detaching
// and re-attaching (observed in Chromium 156), so a re-attach does not
// make refs stale and does not advance the ref epoch; the epoch advances
// when the top frame gets a new document, or when this worker starts
// without a record of the tab's refs (a restarted service worker).
import { CodeNotOwned, CodeStaleRef } from "../../protocol/generated";
import type { ChromeApi } from "../../chrome/api";
import type { Clock } from "../clock";
import type { AgentClient, ElementClient } from "../agent-client/client";
import { preinstall, Worlds } from "../cdp/agent";
import { Debuggers } from "../cdp/debuggers";
import { readIndex } from "../cdp/frames";
import type { FrameEntry, FrameIndex } from "../cdp/frames";
import { fieldsOf, numField, ProtocolShapeError } from "../cdp/read";
import type { SendOptions, TabSession } from "../cdp/session";
import { DownloadLog } from "../downloads/downloads";
import { isFields } from "../fields";
import { Failure, failure } from "../native/failure";
import type { Log } from "../log";
import type { OwnedTab, Ownership } from "../tabs/ownership";
import { RefBook } from "./refs";

const NAVIGATION_START = new Set(["Page.frameRequestedNavigation", "Page.frameStartedNavigating", "Page.navigatedWithinDocument"]);

/** What the worker knows about one owned tab's page. */
export class PageTab {
  readonly book = new RefBook();
  readonly worlds: Worlds;
  topLoader: string | undefined;
  /** The top frame's id (the tab's target id), once read. */
  topFrame: string | undefined;
  /** The epoch and id counter Page.persist last wrote ("epoch:next"). */
  written: string | undefined;
  /**
   * Per frame, the document and its page agent's mutation count at the
   * last listener scan (listeners.ts): an unchanged document is not
   * scanned again.
   */
  readonly scanned = new Map<string, { loaderId: string; mutations: number }>();
  private snapshots: Promise<void> = Promise.resolve();

  constructor(source: string) {
    this.worlds = new Worlds(source);
  }

  /** Runs f after the tab's earlier snapshots: each takes ids from the tab's one counter. */
  exclusive<T>(f: () => Promise<T>): Promise<T> {
    const run = this.snapshots.then(f);
    this.snapshots = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

export class Pages {
  readonly debuggers: Debuggers;
  /** Downloads the owned tabs' pages started (downloads.ts). */
  readonly downloads: DownloadLog;
  private readonly tabs = new Map<number, PageTab>();

  constructor(
    private readonly api: ChromeApi,
    clock: Clock,
    log: Log,
    private readonly ownership: Ownership,
    private readonly agentSource: string,
  ) {
    this.debuggers = new Debuggers(api, clock, log);
    this.debuggers.onSession((session, sessionId) => preinstall(session, sessionId, agentSource));
    this.downloads = new DownloadLog(clock);
    this.debuggers.watch((tabId, _sessionId, method, params) => this.downloads.onEvent(tabId, method, params));
  }

  /** The tab's refs (the scripting route records its snapshots' refs here too). */
  refBook(tabId: number): RefBook {
    return this.tabFor(tabId).book;
  }

  private tabFor(tabId: number): PageTab {
    let tab = this.tabs.get(tabId);
    if (tab === undefined) {
      tab = new PageTab(this.agentSource);
      this.tabs.set(tabId, tab);
    }
    return tab;
  }

  /** Runs f on the tab's page through the debugger (attached on first use). The caller checked ownership and route. */
  use<T>(tabId: number, f: (page: Page) => Promise<T>): Promise<T> {
    const state = this.tabFor(tabId);
    return this.debuggers.use(tabId, (session) => f(new Page(session, state, this.ownership, tabId, this.api)));
  }

  /**
   * Calls began when the page asks to navigate its top frame. The
   * DevTools events arrive with the input's acknowledgement (measured in
   * Chromium 156: 0–2 ms after a submit button's mouseReleased), while
   * webNavigation.onBeforeNavigate takes 8–40 ms to reach the worker.
   */
  onNavigationStart(tabId: number, began: () => void): () => void {
    return this.debuggers.watch((id, sessionId, method, params) => {
      if (id !== tabId || sessionId !== undefined || !NAVIGATION_START.has(method) || !isFields(params)) return;
      const top = this.tabs.get(tabId)?.topFrame;
      if (top === undefined || params["frameId"] !== top) return;
      // A link or form aimed at a new tab or window is not this tab's navigation.
      const disposition = params["disposition"];
      if (disposition === undefined || disposition === "currentTab") began();
    });
  }

  /** Calls opened when the page opens a JavaScript dialog (a beforeunload holds a navigation). */
  onDialog(tabId: number, opened: () => void): () => void {
    return this.debuggers.watch((id, _sessionId, method) => {
      if (id === tabId && method === "Page.javascriptDialogOpening") opened();
    });
  }

  /** The tab's attached session, if any (an open dialog is reported from it). */
  session(tabId: number): TabSession | undefined {
    return this.debuggers.current(tabId);
  }

  /** Forgets every tab's page and detaches from all of them. */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.tabs.keys()].map((tabId) => this.release(tabId)));
    await this.debuggers.releaseAll();
  }

  /** Forgets the tab and detaches at once (finish, revocation, close). */
  async release(tabId: number): Promise<void> {
    this.tabs.delete(tabId);
    this.downloads.forget(tabId);
    await this.debuggers.release(tabId);
  }
}

/** One call's view of a tab's page. */
export class Page {
  constructor(
    readonly session: TabSession,
    readonly tab: PageTab,
    private readonly ownership: Ownership,
    readonly tabId: number,
    private readonly api: Pick<ChromeApi, "tabs">,
  ) {}

  /**
   * Whether the tab is the one its window shows, so its page renders
   * frames. A task's tabs are normally in the background, where Chrome
   * renders none (notes/chromium.md); page/target.ts aim times its second
   * look by this.
   */
  async shown(): Promise<boolean> {
    return (await this.api.tabs.get(this.tabId))?.active === true;
  }

  /** The tab's ownership record; the tab may be revoked while work runs. */
  owned(): OwnedTab {
    const owner = this.ownership.owner(this.tabId);
    if (owner === undefined) {
      throw failure(CodeNotOwned, "the tab is no longer owned by the task");
    }
    return owner.tab;
  }

  /**
   * Every frame, read now; a new top document advances the ref epoch.
   * Read every time, not kept between calls: observed in a loaded e2e run,
   * a kept index still named a same-process iframe's first document after
   * it had committed its second, whose Page.frameNavigated was still on
   * its way; the snapshot's refs were then booked under the gone document
   * (stale_ref on the next click). Page.getFrameTree answers after the
   * renderer's own events, so a fresh read never misses a commit.
   */
  async frames(): Promise<FrameIndex> {
    const index = await readIndex(this.session);
    this.tab.topFrame = index.top.doc.frameId;
    const loader = index.top.doc.loaderId;
    if (this.tab.topLoader !== loader) {
      const owned = this.owned();
      owned.refEpoch++;
      this.tab.topLoader = loader;
      this.tab.book.clear();
      this.tab.worlds.clear();
      this.persist();
    }
    return index;
  }

  /**
   * Writes the tab's epoch and id counter with the ownership record when
   * they changed since this worker last wrote them: a snapshot of a page
   * it showed before hands out no new ids, and two storage writes per
   * snapshot bought nothing. Not awaited: losing it costs only stale refs.
   */
  persist(): void {
    const owned = this.ownership.owner(this.tabId)?.tab;
    const written = owned === undefined ? undefined : `${owned.refEpoch}:${owned.nextRef}`;
    if (written !== undefined && written === this.tab.written) return;
    this.tab.written = written;
    this.ownership.persist().catch(() => undefined);
  }

  /** The page agent of a frame (opts: for each of its calls, such as a longer timeout). */
  agent(frame: FrameEntry, opts: SendOptions = {}): AgentClient {
    return this.tab.worlds.agent(this.session, frame, opts);
  }

  /** The page agent's element functions in a frame (remote objects: the debugger's alone). */
  elements(frame: FrameEntry): ElementClient {
    return this.tab.worlds.elements(this.session, frame);
  }

  /** The frame whose current document showed ref and whose page agent still knows it; else stale_ref. */
  async locate(ref: string): Promise<{ frame: FrameEntry; index: FrameIndex }> {
    const doc = this.tab.book.locate(ref);
    const index = await this.frames();
    const frame = doc === undefined ? undefined : index.frames.get(doc.frameId);
    if (doc === undefined || frame === undefined || frame.doc.loaderId !== doc.loaderId) {
      throw staleRef(ref, doc === undefined ? "no snapshot of the current page showed it" : "the document it belonged to is gone");
    }
    if (!(await this.agent(frame).knows(ref))) throw staleRef(ref, "its document no longer knows it");
    return { frame, index };
  }

  /**
   * Where the frame's viewport starts in the top frame's viewport: the sum
   * of the content boxes of the iframes it sits in. Input events go to the
   * tab in top-frame coordinates; Chrome routes them into the frame.
   */
  async offset(frame: FrameEntry, index: FrameIndex): Promise<{ x: number; y: number }> {
    let x = 0;
    let y = 0;
    for (let cur = frame; cur.parent !== undefined; ) {
      const parent = cur.parent;
      const owner = await this.session.send("DOM.getFrameOwner", { frameId: cur.doc.frameId }, { sessionId: parent.sessionId });
      const box = await this.session.send("DOM.getBoxModel", { backendNodeId: numField(owner, "backendNodeId", "DOM.getFrameOwner") }, { sessionId: parent.sessionId });
      const content = fieldsOf(box["model"], "DOM.getBoxModel.model")["content"];
      if (!Array.isArray(content) || typeof content[0] !== "number" || typeof content[1] !== "number") throw new ProtocolShapeError("an iframe's content box");
      x += content[0];
      y += content[1];
      const next = index.frames.get(parent.frameId);
      if (next === undefined) throw staleRef("", "its frame is gone");
      cur = next;
    }
    return { x, y };
  }
}

export function staleRef(ref: string, why: string): Failure {
  return failure(CodeStaleRef, ref === "" ? `the element's frame changed: ${why}` : `ref ${ref} is stale: ${why}`);
}
