// The extension's only view of Chrome. Everything outside src/chrome takes a
// ChromeApi, so unit tests run against fake.ts and only real.ts touches the
// `chrome` global (DESIGN.md "Layering"). The shapes are the subset of the
// chrome.* API the extension reads, trimmed so that a fake can build them.

/** Subscribes a listener and returns the function that unsubscribes it. */
export type Listen<A extends unknown[]> = (listener: (...args: A) => void) => () => void;

/** chrome.windows.WINDOW_ID_NONE: no Chrome window has the focus. */
export const NO_WINDOW = -1;

/** chrome.tabGroups.TAB_GROUP_ID_NONE: the groupId of an ungrouped tab. */
export const NO_GROUP = -1;

export interface Tab {
  id: number;
  windowId: number;
  groupId: number;
  /** Empty until the first navigation commits; pendingUrl has the target. */
  url?: string | undefined;
  pendingUrl?: string | undefined;
  title?: string | undefined;
  status?: "loading" | "complete" | "unloaded" | undefined;
  /** It is the tab its window shows (a task's own tabs never are, unless Chrome or the user made them so). */
  active: boolean;
  /** The tab whose page opened this one, when Chrome kept the relation. */
  openerTabId?: number | undefined;
}

/** The fields of chrome.tabs.onUpdated's changeInfo the extension uses. */
export interface TabChange {
  url?: string | undefined;
  status?: string | undefined;
  groupId?: number | undefined;
}

export interface NavigationDetails {
  tabId: number;
  frameId: number;
  url: string;
}

/** webNavigation.onErrorOccurred: a navigation that did not commit. */
export interface NavigationError extends NavigationDetails {
  /** Chrome's net error name, e.g. "net::ERR_ABORTED". */
  error: string;
}

/**
 * Where a DevTools protocol command goes: a tab's page target, or a flat
 * child session inside it (an out-of-process iframe attached through
 * Target.setAutoAttach with flatten; chrome.debugger's DebuggerSession,
 * Chrome 125+).
 */
export interface DebuggerTarget {
  tabId: number;
  sessionId?: string | undefined;
}

/**
 * webNavigation.onCreatedNavigationTarget: a page opened a new tab or
 * window (window.open, target=_blank, also with noopener).
 */
export interface NavigationTarget {
  sourceTabId: number;
  tabId: number;
  url: string;
}

/** A window created with its first tab. */
export interface CreatedWindow {
  id: number;
  tab: Tab;
}

export interface GroupLook {
  title: string;
  /** A chrome.tabGroups.Color name; any other string is refused by Chrome. */
  color: string;
  collapsed: boolean;
}

export interface Port {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: Listen<[message: unknown]>;
  /**
   * error is chrome.runtime.lastError's message, which Chrome sets only
   * while onDisconnect's listeners run.
   */
  onDisconnect: Listen<[error: string | undefined]>;
}

/**
 * Who sent a runtime message, as Chrome reports it (runtime.MessageSender):
 * id is the sending extension's, url the sending document's (for a content
 * script, the page's frame, never the extension's own pages), tabId the
 * tab it runs in (none for the toolbar popup).
 */
export interface MessageSender {
  id: string | undefined;
  url: string | undefined;
  tabId: number | undefined;
}

/** Answers a runtime message, or returns undefined to leave it unanswered. */
export type MessageHandler = (message: unknown, sender: MessageSender) => Promise<unknown> | undefined;

/**
 * A bookmark or folder (chrome.bookmarks.BookmarkTreeNode, trimmed): a
 * folder has no url; unmodifiable is "managed" for the administrator's
 * bookmarks. children only from getTree/getSubTree.
 */
export interface BookmarkNode {
  id: string;
  parentId?: string | undefined;
  index?: number | undefined;
  title: string;
  url?: string | undefined;
  dateAdded?: number | undefined;
  unmodifiable?: "managed" | undefined;
  children?: BookmarkNode[] | undefined;
}

export interface HistoryEntry {
  id: string;
  url?: string | undefined;
  title?: string | undefined;
  lastVisitTime?: number | undefined;
  visitCount?: number | undefined;
}

export interface SessionTab {
  sessionId?: string | undefined;
  url?: string | undefined;
  title?: string | undefined;
}

/** A recently closed or another device's tab or window (chrome.sessions.Session). */
export interface Session {
  /** Seconds since the epoch (Chrome's unit here, unlike history's ms). */
  lastModified: number;
  tab?: SessionTab | undefined;
  window?: { sessionId?: string | undefined; tabs?: SessionTab[] | undefined } | undefined;
}

export interface Device {
  deviceName: string;
  sessions: Session[];
}

export interface Download {
  id: number;
  url: string;
  finalUrl: string;
  filename: string;
  state: string;
  paused: boolean;
  canResume: boolean;
  bytesReceived: number;
  totalBytes: number;
  /** ISO 8601. */
  startTime: string;
  error?: string | undefined;
}

/**
 * chrome.bookmarks, history, sessions and downloads: they back
 * browser_profile only (spec 000), so only background/profile/ reaches
 * them (internal/extbuild TestSourceFences). The subset is what profile
 * operations may do: no history deletion, no session restore (it
 * activates), no download open, show, removeFile or erase.
 */
export interface ProfileApi {
  readonly bookmarks: {
    search(query: string): Promise<BookmarkNode[]>;
    /** The whole tree from the invisible root "0". */
    getTree(): Promise<BookmarkNode[]>;
    /** The node with its descendants; undefined when there is none. */
    getSubTree(id: string): Promise<BookmarkNode | undefined>;
    /** undefined when there is no node with that id. */
    get(id: string): Promise<BookmarkNode | undefined>;
    create(props: { parentId?: string; index?: number; title?: string; url?: string }): Promise<BookmarkNode>;
    update(id: string, changes: { title?: string; url?: string }): Promise<BookmarkNode>;
    move(id: string, destination: { parentId?: string; index?: number }): Promise<BookmarkNode>;
    /** One bookmark or one empty folder (Chrome refuses a non-empty one). */
    remove(id: string): Promise<void>;
  };
  readonly history: {
    search(query: { text: string; startTime?: number; endTime?: number; maxResults: number }): Promise<HistoryEntry[]>;
  };
  readonly sessions: {
    getRecentlyClosed(maxResults: number): Promise<Session[]>;
    getDevices(): Promise<Device[]>;
  };
  readonly downloads: {
    search(query: { query?: string[]; id?: number; limit: number }): Promise<Download[]>;
    cancel(id: number): Promise<void>;
    pause(id: number): Promise<void>;
    resume(id: number): Promise<void>;
  };
}

export interface ChromeApi {
  readonly runtime: {
    readonly id: string;
    /** The manifest's version. */
    readonly version: string;
    /** The extension's popup page (the manifest's action.default_popup) as a full URL. */
    readonly popupUrl: string;
    sendMessage(message: unknown): Promise<unknown>;
    onMessage(handler: MessageHandler): void;
    /** runtime.onStartup: the browser profile started (not an extension reload). */
    onStartup: Listen<[]>;
  };
  /** chrome.runtime.connectNative. */
  nativePort(name: string): Port;
  readonly tabs: {
    /** Always inactive: AgentTab never focuses a tab (spec 001). */
    create(props: { url: string; windowId: number; active: false }): Promise<Tab>;
    /** undefined when Chrome has no tab with that id. */
    get(tabId: number): Promise<Tab | undefined>;
    /** The active tab of a window, if it has one. */
    activeIn(windowId: number): Promise<Tab | undefined>;
    /** The tabs in a tab group (none when the group is gone). */
    inGroup(groupId: number): Promise<Tab[]>;
    /** false when the tab was already gone. */
    remove(tabId: number): Promise<boolean>;
    group(options: { tabIds: number[]; groupId: number } | { tabIds: number[]; createProperties: { windowId: number } }): Promise<number>;
    ungroup(tabId: number): Promise<void>;
    onCreated: Listen<[tab: Tab]>;
    onUpdated: Listen<[tabId: number, change: TabChange, tab: Tab]>;
    onRemoved: Listen<[tabId: number]>;
    onAttached: Listen<[tabId: number, windowId: number]>;
    /** Tab-lifecycle navigation: never activates the tab. */
    navigate(tabId: number, url: string): Promise<void>;
    reload(tabId: number): Promise<void>;
    goBack(tabId: number): Promise<void>;
    goForward(tabId: number): Promise<void>;
  };
  readonly tabGroups: {
    update(groupId: number, look: GroupLook): Promise<void>;
    /** Changes the group's title only (its colour and whether the user collapsed it stay). */
    retitle(groupId: number, title: string): Promise<void>;
    /** The group's title and colour; undefined when Chrome has no group with that id. */
    get(groupId: number): Promise<{ title: string; color: string } | undefined>;
  };
  readonly windows: {
    /** Always unfocused and normal (spec 000 "placement: new_window"). */
    create(props: { url: string; focused: false; state: "normal" }): Promise<CreatedWindow>;
    /** The last-focused normal window's id, or undefined when there is none. */
    lastFocusedNormal(): Promise<number | undefined>;
  };
  /**
   * The user's view: which tab each window shows and which window has the
   * focus. AgentTab changes either only to give back what Chrome took from
   * the user for a task (background/tabs/focus-guard.ts).
   */
  readonly userView: {
    /** tabs.onActivated. */
    onActivated: Listen<[tabId: number, windowId: number]>;
    /** windows.onFocusChanged; NO_WINDOW when no Chrome window has the focus. */
    onFocusChanged: Listen<[windowId: number]>;
    /** The active tab of every window. */
    activeTabs(): Promise<{ tabId: number; windowId: number }[]>;
    /** The window with the focus, or NO_WINDOW. */
    focusedWindow(): Promise<number>;
    /** Makes the user's own tab active again in its window. */
    giveTabBack(tabId: number): Promise<void>;
    /** Gives the focus back to the window the user was in. */
    giveFocusBack(windowId: number): Promise<void>;
    /**
     * Shows the user the tab they asked for (the popup's Open tab on a
     * notice): makes it its window's active tab and focuses that window.
     * The only focus AgentTab ever causes, and only on the user's click.
     */
    openForUser(tabId: number, windowId: number): Promise<void>;
  };
  readonly storageSession: {
    get(key: string): Promise<unknown>;
    set(key: string, value: unknown): Promise<void>;
  };
  /** chrome.storage.local: kept across browser restarts (the user's Pause). */
  readonly storageLocal: {
    get(key: string): Promise<unknown>;
    set(key: string, value: unknown): Promise<void>;
  };
  readonly webNavigation: {
    onCommitted: Listen<[details: NavigationDetails]>;
    onHistoryStateUpdated: Listen<[details: NavigationDetails]>;
    onReferenceFragmentUpdated: Listen<[details: NavigationDetails]>;
    onBeforeNavigate: Listen<[details: NavigationDetails]>;
    onDOMContentLoaded: Listen<[details: NavigationDetails]>;
    onCompleted: Listen<[details: NavigationDetails]>;
    onErrorOccurred: Listen<[details: NavigationError]>;
    onCreatedNavigationTarget: Listen<[details: NavigationTarget]>;
  };
  /** chrome.debugger, protocol version 1.3. */
  readonly debugger: {
    attach(tabId: number): Promise<void>;
    detach(tabId: number): Promise<void>;
    /** The command's result object; rejects with Chrome's error text. */
    send(target: DebuggerTarget, method: string, params: object): Promise<unknown>;
    onEvent: Listen<[source: DebuggerTarget, method: string, params: unknown]>;
    /** reason is "target_closed" or "canceled_by_user". */
    onDetach: Listen<[tabId: number, reason: string]>;
  };
  /**
   * chrome.permissions for the one optional permission, "scripting"
   * (spec 000: the popup requests it when the user turns automation on and
   * removes it when turned off). request needs a user gesture.
   */
  readonly permissions: {
    contains(permission: "scripting"): Promise<boolean>;
    request(permission: "scripting"): Promise<boolean>;
    remove(permission: "scripting"): Promise<boolean>;
    onRemoved: Listen<[permissions: string[]]>;
  };
  /**
   * chrome.scripting in the top document of a tab, in the extension's
   * isolated world unless said otherwise (the scripting route, spec 000).
   */
  readonly scripting: {
    /** Runs a file of the extension there. */
    injectFile(tabId: number, file: string): Promise<void>;
    /** Calls a function of globalThis.__agenttab there; undefined value when the agent is missing. */
    callAgent(tabId: number, name: string, args: unknown[]): Promise<{ missing: boolean; value: unknown; documentId: string }>;
    /** window.stop() there: cancels the navigation the document started, if it has not committed. */
    stopLoading(tabId: number): Promise<void>;
    /**
     * Runs a self-contained function in the top document's main world
     * (only the window.open trap does, for one gesture: spec 000) and
     * answers its JSON result.
     */
    runMain<A extends unknown[]>(tabId: number, func: (...args: A) => unknown, args: A): Promise<unknown>;
  };
  /** The extension's toolbar icon: a badge says the user has something to answer. */
  readonly action: {
    setBadgeText(text: string): Promise<void>;
  };
  /** chrome.idle: the user's coarse presence, nothing finer (spec 000). */
  readonly idle: {
    /** "idle" after thresholdSeconds without input; "locked" while the screen is locked. */
    queryState(thresholdSeconds: number): Promise<"active" | "idle" | "locked">;
  };
  /** browser_profile's APIs (profile.ts); only background/profile/ uses them. */
  readonly profile: ProfileApi;
  readonly alarms: {
    create(name: string, delayMinutes: number): Promise<void>;
    clear(name: string): Promise<void>;
    onAlarm: Listen<[name: string]>;
  };
}
