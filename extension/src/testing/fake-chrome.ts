// A hand-written, in-memory Chrome for unit tests: windows, tabs, groups,
// storage.session, native ports, alarms and a scriptable chrome.debugger
// (commands answered by a handler the test sets), with the behaviour the
// extension depends on (verified against Chromium 156, notes/chromium.md):
// API calls answer at once, events arrive a task later, an emptied group
// disappears, webNavigation is silent for chrome-extension:// pages.
// Tests drive the user's side through the user* methods and the host's
// side through FakePort.
import { NO_GROUP, NO_WINDOW } from "../chrome/api";
import { FakeProfile } from "./fake-profile";
import type { ChromeApi, CreatedWindow, DebuggerTarget, GroupLook, Listen, MessageHandler, MessageSender, NavigationDetails, NavigationError, NavigationTarget, Port, Tab, TabChange } from "../chrome/api";

export interface FakeTab {
  id: number;
  windowId: number;
  groupId: number;
  url: string;
  pendingUrl: string | undefined;
  title: string;
  status: "loading" | "complete";
  active: boolean;
  /** The tab's session history and the current entry's index in it. */
  history: string[];
  historyIndex: number;
}

/** One command the extension sent through chrome.debugger. */
export interface FakeCommand {
  target: DebuggerTarget;
  method: string;
  params: object;
}

/** Answers a debugger command: a result object, or a thrown error (Chrome's rejection). */
export type CommandHandler = (command: FakeCommand) => unknown;

export interface FakeGroup {
  id: number;
  windowId: number;
  title: string;
  color: string;
  collapsed: boolean;
}

export interface FakeWindow {
  id: number;
  type: "normal" | "popup";
  focused: boolean;
}

type Failable = "tabs.create" | "tabs.group" | "tabs.ungroup" | "tabs.remove" | "tabGroups.update" | "windows.create" | "debugger.attach" | "tabs.navigate";

const COLORS = new Set(["grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"]);

class Emitter<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();
  constructor(private readonly fake: FakeChrome) {}

  readonly listen: Listen<A> = (l) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  emit(...args: A): void {
    this.fake.later(() => {
      for (const l of [...this.listeners]) l(...args);
    });
  }
}

/** The host's end of a native port. */
export class FakePort implements Port {
  /** What the extension posted, as the host would decode it (JSON). */
  readonly sent: unknown[] = [];
  closed = false;
  private readonly messages: Emitter<[unknown]>;
  private readonly disconnects: Emitter<[string | undefined]>;

  constructor(
    readonly name: string,
    fake: FakeChrome,
  ) {
    this.messages = new Emitter(fake);
    this.disconnects = new Emitter(fake);
    this.onMessage = this.messages.listen;
    this.onDisconnect = this.disconnects.listen;
  }

  readonly onMessage: Listen<[unknown]>;
  readonly onDisconnect: Listen<[string | undefined]>;

  postMessage(message: unknown): void {
    if (this.closed) throw new Error("Attempting to use a disconnected port object");
    this.sent.push(JSON.parse(JSON.stringify(message)));
  }

  disconnect(): void {
    this.closed = true;
  }

  /** The host sends a message to the extension. */
  hostSend(message: unknown): void {
    this.messages.emit(JSON.parse(JSON.stringify(message)));
  }

  /** The host exits or Chrome fails to start it; error is runtime.lastError. */
  hostDisconnect(error?: string): void {
    this.closed = true;
    this.disconnects.emit(error);
  }
}

export class FakeChrome implements ChromeApi {
  readonly windowMap = new Map<number, FakeWindow>();
  readonly tabMap = new Map<number, FakeTab>();
  readonly groupMap = new Map<number, FakeGroup>();
  readonly storage = new Map<string, unknown>();
  /** chrome.storage.local: survives a (simulated) browser restart. */
  readonly localStorage = new Map<string, unknown>();
  readonly alarmMap = new Map<string, number>();
  readonly ports: FakePort[] = [];
  /** Every API call the extension made, e.g. "tabs.create", in order. */
  readonly calls: string[] = [];
  /** Makes the next call of an API reject with the given message. */
  readonly failNext = new Map<Failable, string>();
  /** Created tabs finish loading by themselves one task later. */
  autoLoad = true;
  lastFocused: number | undefined;
  /** Tabs the debugger is attached to. */
  readonly attachedTabs = new Set<number>();
  /** Every debugger command, in order. */
  readonly commands: FakeCommand[] = [];
  /** Answers debugger commands; by default every command succeeds with {}. */
  cdp: CommandHandler = () => ({});

  private nextId = 1;
  private pending = 0;
  private messageHandler: MessageHandler | undefined;
  private readonly updated = new Emitter<[number, TabChange, Tab]>(this);
  private readonly created = new Emitter<[Tab]>(this);
  private readonly startup = new Emitter<[]>(this);
  private readonly removed = new Emitter<[number]>(this);
  private readonly navigationTargets = new Emitter<[NavigationTarget]>(this);
  private readonly attached = new Emitter<[number, number]>(this);
  private readonly committed = new Emitter<[NavigationDetails]>(this);
  private readonly historyUpdated = new Emitter<[NavigationDetails]>(this);
  private readonly fragmentUpdated = new Emitter<[NavigationDetails]>(this);
  private readonly alarmFired = new Emitter<[string]>(this);
  private readonly beforeNavigate = new Emitter<[NavigationDetails]>(this);
  private readonly contentLoaded = new Emitter<[NavigationDetails]>(this);
  private readonly completed = new Emitter<[NavigationDetails]>(this);
  private readonly navigationError = new Emitter<[NavigationError]>(this);
  private readonly debuggerEvents = new Emitter<[DebuggerTarget, string, unknown]>(this);
  private readonly debuggerDetached = new Emitter<[number, string]>(this);

  /** Runs f a task later, as Chrome delivers events. */
  later(f: () => void): void {
    this.pending++;
    setTimeout(() => {
      this.pending--;
      f();
    }, 0);
  }

  /** Waits until every queued event and the work it started have run. */
  async settle(): Promise<void> {
    for (let quiet = 0; quiet < 5; quiet = this.pending === 0 ? quiet + 1 : 0) {
      await new Promise((r) => setTimeout(r, 0));
    }
  }

  private id(): number {
    return this.nextId++;
  }

  private call(name: string, failable?: Failable): void {
    this.calls.push(name);
    if (failable === undefined) return;
    const message = this.failNext.get(failable);
    if (message !== undefined) {
      this.failNext.delete(failable);
      throw new Error(message);
    }
  }

  private mustTab(tabId: number): FakeTab {
    const t = this.tabMap.get(tabId);
    if (t === undefined) throw new Error(`No tab with id: ${tabId}.`);
    return t;
  }

  private snapshot(t: FakeTab): Tab {
    return { id: t.id, windowId: t.windowId, groupId: t.groupId, url: t.url, pendingUrl: t.pendingUrl, title: t.title, status: t.status, active: t.active };
  }

  private newTab(windowId: number, url: string, active: boolean): FakeTab {
    const tab: FakeTab = { id: this.id(), windowId, groupId: NO_GROUP, url: "", pendingUrl: url, title: "", status: "loading", active, history: [], historyIndex: -1 };
    this.tabMap.set(tab.id, tab);
    if (this.autoLoad) this.later(() => this.finishLoad(tab.id));
    return tab;
  }

  private setGroup(tab: FakeTab, groupId: number): void {
    const old = tab.groupId;
    if (old === groupId) return;
    tab.groupId = groupId;
    this.updated.emit(tab.id, { groupId }, this.snapshot(tab));
    this.dropEmptyGroup(old);
  }

  private dropEmptyGroup(groupId: number): void {
    if (groupId === NO_GROUP) return;
    for (const t of this.tabMap.values()) if (t.groupId === groupId) return;
    this.groupMap.delete(groupId);
  }

  // ChromeApi.

  readonly runtime = {
    id: "fakeextensionid",
    version: "0.0.0",
    popupUrl: "chrome-extension://fakeextensionid/popup.html",
    /** A message from the extension's popup (the toolbar's: no tab). */
    sendMessage: (message: unknown): Promise<unknown> => this.messageFrom({ id: this.runtime.id, url: this.runtime.popupUrl, tabId: undefined }, message),
    onMessage: (handler: MessageHandler): void => {
      this.messageHandler = handler;
    },
    onStartup: this.startup.listen,
  };

  nativePort(name: string): Port {
    this.call(`runtime.connectNative ${name}`);
    const port = new FakePort(name, this);
    this.ports.push(port);
    return port;
  }

  readonly tabs: ChromeApi["tabs"] = {
    create: async (props) => {
      this.call("tabs.create", "tabs.create");
      if (!this.windowMap.has(props.windowId)) throw new Error(`No window with id: ${props.windowId}.`);
      const tab = this.snapshot(this.newTab(props.windowId, props.url, props.active));
      this.created.emit(tab);
      return tab;
    },
    get: async (tabId) => {
      const t = this.tabMap.get(tabId);
      return t === undefined ? undefined : this.snapshot(t);
    },
    activeIn: async (windowId) => {
      for (const t of this.tabMap.values()) if (t.windowId === windowId && t.active) return this.snapshot(t);
      return undefined;
    },
    inGroup: async (groupId) => [...this.tabMap.values()].filter((t) => t.groupId === groupId).map((t) => this.snapshot(t)),
    remove: async (tabId) => {
      this.call(`tabs.remove ${tabId}`, "tabs.remove");
      if (!this.tabMap.has(tabId)) return false;
      this.userClose(tabId);
      return true;
    },
    group: async (options) => {
      this.call("tabs.group", "tabs.group");
      let group: FakeGroup;
      if ("groupId" in options) {
        const g = this.groupMap.get(options.groupId);
        if (g === undefined) throw new Error(`No group with id: ${options.groupId}.`);
        group = g;
      } else {
        group = { id: this.id(), windowId: options.createProperties.windowId, title: "", color: "grey", collapsed: false };
        this.groupMap.set(group.id, group);
      }
      for (const tabId of options.tabIds) {
        const tab = this.mustTab(tabId);
        if (tab.windowId !== group.windowId) throw new Error("the fake does not move tabs between windows while grouping");
        this.setGroup(tab, group.id);
      }
      return group.id;
    },
    ungroup: async (tabId) => {
      this.call(`tabs.ungroup ${tabId}`, "tabs.ungroup");
      this.setGroup(this.mustTab(tabId), NO_GROUP);
    },
    onCreated: this.created.listen,
    onUpdated: this.updated.listen,
    onRemoved: this.removed.listen,
    onAttached: this.attached.listen,
    navigate: async (tabId, url) => {
      this.call(`tabs.navigate ${tabId} ${url}`, "tabs.navigate");
      this.startLoad(this.mustTab(tabId), url, "push");
    },
    reload: async (tabId) => {
      this.call(`tabs.reload ${tabId}`);
      const tab = this.mustTab(tabId);
      this.startLoad(tab, tab.url, "stay");
    },
    goBack: async (tabId) => {
      this.call(`tabs.goBack ${tabId}`);
      this.go(this.mustTab(tabId), -1);
    },
    goForward: async (tabId) => {
      this.call(`tabs.goForward ${tabId}`);
      this.go(this.mustTab(tabId), 1);
    },
  };

  readonly tabGroups = {
    update: async (groupId: number, look: GroupLook): Promise<void> => {
      this.call("tabGroups.update", "tabGroups.update");
      const g = this.groupMap.get(groupId);
      if (g === undefined) throw new Error(`No group with id: ${groupId}.`);
      if (!COLORS.has(look.color)) throw new Error(`"${look.color}" is not a tab group colour`);
      Object.assign(g, look);
    },
    retitle: async (groupId: number, title: string): Promise<void> => {
      this.call("tabGroups.update", "tabGroups.update");
      const g = this.groupMap.get(groupId);
      if (g === undefined) throw new Error(`No group with id: ${groupId}.`);
      g.title = title;
    },
    get: async (groupId: number): Promise<{ title: string; color: string } | undefined> => {
      const g = this.groupMap.get(groupId);
      return g === undefined ? undefined : { title: g.title, color: g.color };
    },
  };

  readonly windows = {
    create: async (props: { url: string; focused: false; state: "normal" }): Promise<CreatedWindow> => {
      this.call("windows.create", "windows.create");
      const w: FakeWindow = { id: this.id(), type: "normal", focused: props.focused };
      this.windowMap.set(w.id, w);
      const tab = this.snapshot(this.newTab(w.id, props.url, true));
      this.created.emit(tab);
      return { id: w.id, tab };
    },
    lastFocusedNormal: async (): Promise<number | undefined> => {
      const w = this.lastFocused === undefined ? undefined : this.windowMap.get(this.lastFocused);
      return w?.type === "normal" ? w.id : undefined;
    },
  };

  /** The window with the focus (NO_WINDOW: none); set it with userFocus. */
  focusedWindowId = NO_WINDOW;
  private readonly activated = new Emitter<[number, number]>(this);
  private readonly focusChanged = new Emitter<[number]>(this);

  /** Chrome (or the user) activates a tab: it becomes its window's active tab. */
  userActivate(tabId: number): void {
    const tab = this.mustTab(tabId);
    for (const t of this.tabMap.values()) if (t.windowId === tab.windowId) t.active = t.id === tabId;
    this.activated.emit(tabId, tab.windowId);
  }

  /**
   * A runtime message from sender: the extension's popup, or a content
   * script (the scripting route's page agent) in a tab, which Chrome
   * reports with that tab and the page's URL. As observed in Chromium 156:
   * without a listener it rejects; with one that leaves it unanswered
   * (returns false) it resolves to undefined.
   */
  messageFrom(sender: MessageSender, message: unknown): Promise<unknown> {
    if (this.messageHandler === undefined) return Promise.reject(new Error("Could not establish connection. Receiving end does not exist."));
    return this.messageHandler(message, sender) ?? Promise.resolve(undefined);
  }

  /** Chrome (or the user) moves the OS focus to a window (NO_WINDOW: away from Chrome). */
  userFocus(windowId: number): void {
    this.focusedWindowId = windowId;
    if (windowId !== NO_WINDOW) this.lastFocused = windowId;
    this.focusChanged.emit(windowId);
  }

  readonly userView = {
    onActivated: this.activated.listen,
    onFocusChanged: this.focusChanged.listen,
    activeTabs: async (): Promise<{ tabId: number; windowId: number }[]> => [...this.tabMap.values()].filter((t) => t.active).map((t) => ({ tabId: t.id, windowId: t.windowId })),
    focusedWindow: async (): Promise<number> => this.focusedWindowId,
    giveTabBack: async (tabId: number): Promise<void> => {
      this.call(`tabs.giveBack ${tabId}`);
      this.userActivate(tabId);
    },
    giveFocusBack: async (windowId: number): Promise<void> => {
      this.call(`windows.giveFocusBack ${windowId}`);
      this.userFocus(windowId);
    },
    openForUser: async (tabId: number, windowId: number): Promise<void> => {
      this.call(`tabs.openForUser ${tabId}`);
      this.userActivate(tabId);
      this.userFocus(windowId);
    },
  };

  readonly storageSession = {
    get: async (key: string): Promise<unknown> => {
      const v = this.storage.get(key);
      return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
    },
    set: async (key: string, value: unknown): Promise<void> => {
      this.storage.set(key, JSON.parse(JSON.stringify(value)));
    },
  };
  readonly storageLocal = {
    get: async (key: string): Promise<unknown> => {
      const v = this.localStorage.get(key);
      return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
    },
    set: async (key: string, value: unknown): Promise<void> => {
      this.localStorage.set(key, JSON.parse(JSON.stringify(value)));
    },
  };

  readonly webNavigation = {
    onCommitted: this.committed.listen,
    onHistoryStateUpdated: this.historyUpdated.listen,
    onReferenceFragmentUpdated: this.fragmentUpdated.listen,
    onBeforeNavigate: this.beforeNavigate.listen,
    onDOMContentLoaded: this.contentLoaded.listen,
    onCompleted: this.completed.listen,
    onErrorOccurred: this.navigationError.listen,
    onCreatedNavigationTarget: this.navigationTargets.listen,
  };

  /** What ran in main worlds through scripting.runMain (the function's name and arguments), in order; each answers nothing. */
  readonly mainWorldCalls: { tabId: number; func: string; args: unknown[] }[] = [];

  /** The tabs whose loading scripting.stopLoading stopped, in order. */
  readonly stoppedLoading: number[] = [];

  /** Answers the scripting route's agent calls (undefined: Chrome refuses, as without the permission). */
  scriptedAgent: ((name: string, args: unknown[]) => unknown) | undefined;

  readonly scripting: ChromeApi["scripting"] = {
    injectFile: async () => {
      if (this.scriptedAgent === undefined || !this.granted.has("scripting")) throw new Error("Cannot access contents of the page. Extension manifest must request permission to access the respective host.");
    },
    callAgent: async (_tabId, name, args) => {
      if (this.scriptedAgent === undefined || !this.granted.has("scripting")) throw new Error("Cannot access contents of the page.");
      return { missing: false, value: this.scriptedAgent(name, args), documentId: "DOC1" };
    },
    runMain: async (tabId, func, args) => {
      if (!this.granted.has("scripting")) throw new Error("Cannot access contents of the page.");
      this.mainWorldCalls.push({ tabId, func: func.name, args });
      return undefined;
    },
    stopLoading: async (tabId) => {
      if (!this.granted.has("scripting")) throw new Error("Cannot access contents of the page.");
      this.stoppedLoading.push(tabId);
    },
  };

  /** The optional permissions granted now. */
  readonly granted = new Set<string>();
  private readonly permissionsRemoved = new Emitter<[string[]]>(this);

  readonly permissions: ChromeApi["permissions"] = {
    contains: async (permission) => this.granted.has(permission),
    request: async (permission) => {
      this.granted.add(permission);
      return true;
    },
    remove: async (permission) => {
      const had = this.granted.delete(permission);
      if (had) this.permissionsRemoved.emit([permission]);
      return had;
    },
    onRemoved: this.permissionsRemoved.listen,
  };

  /** What chrome.idle.queryState answers. */
  idleState: "active" | "idle" | "locked" = "active";

  readonly idle: ChromeApi["idle"] = {
    queryState: async () => this.idleState,
  };

  /** The toolbar badge's text ("" when none). */
  badge = "";

  readonly action = {
    setBadgeText: async (text: string): Promise<void> => {
      this.badge = text;
    },
  };

  readonly debugger: ChromeApi["debugger"] = {
    attach: async (tabId) => {
      this.call(`debugger.attach ${tabId}`, "debugger.attach");
      this.mustTab(tabId);
      if (this.attachedTabs.has(tabId)) throw new Error(`Another debugger is already attached to the tab with id: ${tabId}.`);
      this.attachedTabs.add(tabId);
    },
    detach: async (tabId) => {
      this.call(`debugger.detach ${tabId}`);
      if (!this.attachedTabs.delete(tabId)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`);
    },
    send: async (target, method, params) => {
      this.call(`debugger.send ${method}`);
      if (!this.attachedTabs.has(target.tabId)) throw new Error(`Debugger is not attached to the tab with id: ${target.tabId}.`);
      const command = { target, method, params };
      this.commands.push(command);
      return (await this.cdp(command)) ?? {};
    },
    onEvent: this.debuggerEvents.listen,
    onDetach: this.debuggerDetached.listen,
  };

  /** browser_profile's APIs (fake-profile.ts). */
  readonly profile = new FakeProfile(this.calls);

  readonly alarms = {
    create: async (name: string, delayMinutes: number): Promise<void> => {
      this.alarmMap.set(name, delayMinutes);
    },
    clear: async (name: string): Promise<void> => {
      this.alarmMap.delete(name);
    },
    onAlarm: this.alarmFired.listen,
  };

  // The user's and the page's side.

  addWindow(opts: { type?: "normal" | "popup"; focused?: boolean } = {}): number {
    const w: FakeWindow = { id: this.id(), type: opts.type ?? "normal", focused: opts.focused ?? true };
    this.windowMap.set(w.id, w);
    if (w.focused) this.lastFocused = w.id;
    return w.id;
  }

  /** A tab the user opened: loaded, in no group. */
  addTab(windowId: number, url: string): number {
    const tab: FakeTab = { id: this.id(), windowId, groupId: NO_GROUP, url, pendingUrl: undefined, title: url, status: "complete", active: false, history: [url], historyIndex: 0 };
    this.tabMap.set(tab.id, tab);
    return tab.id;
  }

  /**
   * A page in opener opens a tab (target=_blank, or window.open in a
   * popup-type window): Chrome reports the tab, then the navigation target.
   * With noopener Chrome keeps no openerTabId; with inGroup Chrome put the
   * tab into the opener's group itself, as observed in Chromium 156 for a
   * target=_blank link.
   */
  pageOpens(opener: number, url: string, opts: { windowId?: number; noopener?: boolean; inGroup?: boolean } = {}): number {
    const from = this.mustTab(opener);
    const tab = this.newTab(opts.windowId ?? from.windowId, url, false);
    if (opts.inGroup === true) tab.groupId = from.groupId;
    const reported = this.snapshot(tab);
    if (opts.noopener !== true) reported.openerTabId = opener;
    this.created.emit(reported);
    this.navigationTargets.emit({ sourceTabId: opener, tabId: tab.id, url });
    return tab.id;
  }

  /** A group the user made by hand. */
  addGroup(windowId: number, tabIds: number[]): number {
    const g: FakeGroup = { id: this.id(), windowId, title: "mine", color: "pink", collapsed: false };
    this.groupMap.set(g.id, g);
    for (const id of tabIds) this.setGroup(this.mustTab(id), g.id);
    return g.id;
  }

  /** Closes a tab. Chrome 156 reports a grouped tab as ungrouped first, then removed. */
  userClose(tabId: number): void {
    const tab = this.mustTab(tabId);
    this.tabMap.delete(tabId);
    if (this.attachedTabs.delete(tabId)) this.debuggerDetached.emit(tabId, "target_closed");
    if (tab.groupId !== NO_GROUP) this.updated.emit(tabId, { groupId: NO_GROUP }, { ...this.snapshot(tab), groupId: NO_GROUP });
    this.removed.emit(tabId);
    this.dropEmptyGroup(tab.groupId);
    for (const t of this.tabMap.values()) if (t.windowId === tab.windowId) return;
    this.windowMap.delete(tab.windowId);
  }

  userUngroup(tabId: number): void {
    this.setGroup(this.mustTab(tabId), NO_GROUP);
  }

  userMoveToGroup(tabId: number, groupId: number): void {
    this.setGroup(this.mustTab(tabId), groupId);
  }

  /** Drags one tab to another window: it leaves its group (Chrome reports the group change, then the attach). */
  userMoveToWindow(tabId: number, windowId: number): void {
    const tab = this.mustTab(tabId);
    this.setGroup(tab, NO_GROUP);
    tab.windowId = windowId;
    this.attached.emit(tabId, windowId);
  }

  /**
   * Drags a whole group to another window. The group keeps its id, but
   * Chrome 156 reports each tab as ungrouped, attached, and grouped again,
   * all after the move has finished.
   */
  userMoveGroupToWindow(groupId: number, windowId: number): void {
    const g = this.groupMap.get(groupId);
    if (g === undefined) throw new Error(`No group with id: ${groupId}.`);
    g.windowId = windowId;
    for (const t of this.tabMap.values()) {
      if (t.groupId !== groupId) continue;
      t.windowId = windowId;
      this.updated.emit(t.id, { groupId: NO_GROUP }, { ...this.snapshot(t), groupId: NO_GROUP });
      this.attached.emit(t.id, windowId);
      this.updated.emit(t.id, { groupId }, this.snapshot(t));
    }
  }

  /** The tab's first navigation commits and the load completes. */
  finishLoad(tabId: number): void {
    const tab = this.tabMap.get(tabId);
    if (tab === undefined || tab.status === "complete") return;
    const url = tab.pendingUrl ?? tab.url;
    this.navigate(tabId, url, "commit");
    if (tab.historyIndex < 0) {
      tab.history = [url];
      tab.historyIndex = 0;
    }
    tab.pendingUrl = undefined;
    tab.status = "complete";
    this.contentLoaded.emit({ tabId, frameId: 0, url });
    this.updated.emit(tabId, { status: "complete" }, this.snapshot(tab));
    this.completed.emit({ tabId, frameId: 0, url });
  }

  // A new document for the top frame: onBeforeNavigate now, the commit and
  // the load a task later (when autoLoad is on).
  private startLoad(tab: FakeTab, url: string, history: "push" | "stay"): void {
    if (history === "push") {
      tab.history = [...tab.history.slice(0, tab.historyIndex + 1), url];
      tab.historyIndex = tab.history.length - 1;
    }
    tab.pendingUrl = url;
    tab.status = "loading";
    this.beforeNavigate.emit({ tabId: tab.id, frameId: 0, url });
    if (this.autoLoad) this.later(() => this.finishLoad(tab.id));
  }

  // Observed in Chromium 156: goBack/goForward reject when there is no
  // entry to go to.
  private go(tab: FakeTab, by: -1 | 1): void {
    const index = tab.historyIndex + by;
    const url = tab.history[index];
    if (url === undefined) throw new Error("Cannot find a next page in history.");
    tab.historyIndex = index;
    this.startLoad(tab, url, "stay");
  }

  /**
   * A top-frame navigation (frameId 0 unless given). Chrome reports a URL
   * change through tabs.onUpdated and, except on another extension's
   * chrome-extension:// pages, through webNavigation.
   */
  navigate(tabId: number, url: string, kind: "commit" | "history" | "fragment", frameId = 0): void {
    const tab = this.mustTab(tabId);
    const details: NavigationDetails = { tabId, frameId, url };
    if (frameId === 0) {
      tab.url = url;
      tab.title = url;
      this.updated.emit(tabId, { url }, this.snapshot(tab));
    }
    if (url.startsWith("chrome-extension://") && !url.startsWith(`chrome-extension://${this.runtime.id}/`)) return;
    if (kind === "commit") this.committed.emit(details);
    if (kind === "history") this.historyUpdated.emit(details);
    if (kind === "fragment") this.fragmentUpdated.emit(details);
  }

  /** The page navigates its top frame by itself (a link, a script): a new history entry loads. */
  pageNavigates(tabId: number, url: string): void {
    this.startLoad(this.mustTab(tabId), url, "push");
  }

  /** A navigation of the tab's top frame fails before it commits. */
  failNavigation(tabId: number, url: string, error: string): void {
    const tab = this.mustTab(tabId);
    tab.pendingUrl = undefined;
    tab.status = "complete";
    this.navigationError.emit({ tabId, frameId: 0, url, error });
  }

  /** The debugger sends an event (a DevTools protocol event of an attached tab). */
  debuggerEvent(target: DebuggerTarget, method: string, params: unknown): void {
    this.debuggerEvents.emit(target, method, params);
  }

  /** The user cancels debugging (the infobar) or the tab goes away. */
  debuggerDetach(tabId: number, reason: "canceled_by_user" | "target_closed"): void {
    this.attachedTabs.delete(tabId);
    this.debuggerDetached.emit(tabId, reason);
  }

  fireAlarm(name: string): void {
    this.alarmFired.emit(name);
  }
}
