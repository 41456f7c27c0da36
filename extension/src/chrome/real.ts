// The ChromeApi over the real `chrome` global: the one file that touches it
// outside the extension's entry points' wiring.
import { realProfile } from "./profile";
import type { ChromeApi, CreatedWindow, DebuggerTarget, GroupLook, Listen, MessageHandler, NavigationDetails, NavigationError, Port, Tab } from "./api";

export function realChrome(): ChromeApi {
  return {
    runtime: {
      id: chrome.runtime.id,
      version: chrome.runtime.getManifest().version,
      popupUrl: chrome.runtime.getURL(chrome.runtime.getManifest().action?.default_popup ?? ""),
      sendMessage: (message) => chrome.runtime.sendMessage(message),
      onMessage: (handler) => chrome.runtime.onMessage.addListener(answer(handler)),
      onStartup: listen(chrome.runtime.onStartup, (l) => () => l()),
    },
    nativePort: (name) => nativePort(chrome.runtime.connectNative(name)),
    tabs: {
      create: async (props) => toTab(await chrome.tabs.create(props)),
      get: (tabId) => ifTabExists(async () => toTab(await chrome.tabs.get(tabId))),
      activeIn: async (windowId) => {
        const [tab] = await chrome.tabs.query({ active: true, windowId });
        return tab === undefined ? undefined : toTab(tab);
      },
      inGroup: async (groupId) => (await chrome.tabs.query({ groupId })).map(toTab),
      remove: async (tabId) => (await ifTabExists(async () => { await chrome.tabs.remove(tabId); return true; })) ?? false,
      group: (options) => {
        const [first, ...rest] = options.tabIds;
        if (first === undefined) return Promise.reject(new Error("tabs.group needs at least one tab"));
        const tabIds: [number, ...number[]] = [first, ...rest];
        return "groupId" in options
          ? chrome.tabs.group({ tabIds, groupId: options.groupId })
          : chrome.tabs.group({ tabIds, createProperties: options.createProperties });
      },
      ungroup: (tabId) => chrome.tabs.ungroup(tabId),
      onCreated: listen(chrome.tabs.onCreated, (l) => (tab) => {
        if (tab.id !== undefined) l(toTab(tab));
      }),
      onUpdated: listen(chrome.tabs.onUpdated, (l) => (tabId, change, tab) => {
        l(tabId, { url: change.url, status: change.status, groupId: change.groupId }, toTab(tab));
      }),
      onRemoved: listen(chrome.tabs.onRemoved, (l) => (tabId) => l(tabId)),
      onAttached: listen(chrome.tabs.onAttached, (l) => (tabId, info) => l(tabId, info.newWindowId)),
      navigate: async (tabId, url) => {
        await chrome.tabs.update(tabId, { url });
      },
      reload: (tabId) => chrome.tabs.reload(tabId),
      goBack: (tabId) => chrome.tabs.goBack(tabId),
      goForward: (tabId) => chrome.tabs.goForward(tabId),
    },
    tabGroups: {
      update: async (groupId, look) => {
        await chrome.tabGroups.update(groupId, { title: look.title, color: groupColor(look), collapsed: look.collapsed });
      },
      retitle: async (groupId, title) => {
        await chrome.tabGroups.update(groupId, { title });
      },
      get: async (groupId) => {
        try {
          const g = await chrome.tabGroups.get(groupId);
          return { title: g.title ?? "", color: g.color };
        } catch {
          // "No group with id: N." (the group is gone).
          return undefined;
        }
      },
    },
    windows: {
      create: async (props): Promise<CreatedWindow> => {
        const w = await chrome.windows.create(props);
        const tab = w?.tabs?.[0];
        if (w?.id === undefined || tab === undefined) throw new Error("windows.create returned no window or no tab");
        return { id: w.id, tab: toTab(tab) };
      },
      lastFocusedNormal: async () => {
        try {
          return (await chrome.windows.getLastFocused({ windowTypes: ["normal"] })).id;
        } catch (e) {
          // Observed in Chromium 156 with no normal window open: the call
          // rejects with "No last-focused window" instead of resolving empty.
          if (errorText(e).startsWith("No last-focused window")) return undefined;
          throw e;
        }
      },
    },
    userView: {
      onActivated: listen(chrome.tabs.onActivated, (l) => (info) => l(info.tabId, info.windowId)),
      onFocusChanged: listen(chrome.windows.onFocusChanged, (l) => (windowId) => l(windowId)),
      activeTabs: async () => (await chrome.tabs.query({ active: true })).flatMap((t) => (t.id === undefined ? [] : [{ tabId: t.id, windowId: t.windowId }])),
      focusedWindow: async () => {
        try {
          const w = await chrome.windows.getLastFocused();
          return w.focused && w.id !== undefined ? w.id : chrome.windows.WINDOW_ID_NONE;
        } catch {
          // "No last-focused window" (no window open at all).
          return chrome.windows.WINDOW_ID_NONE;
        }
      },
      giveTabBack: async (tabId) => {
        await chrome.tabs.update(tabId, { active: true });
      },
      giveFocusBack: async (windowId) => {
        await chrome.windows.update(windowId, { focused: true });
      },
      openForUser: async (tabId, windowId) => {
        await chrome.tabs.update(tabId, { active: true });
        await chrome.windows.update(windowId, { focused: true });
      },
    },
    storageSession: {
      get: async (key) => (await chrome.storage.session.get(key))[key],
      set: (key, value) => chrome.storage.session.set({ [key]: value }),
    },
    storageLocal: {
      get: async (key) => (await chrome.storage.local.get(key))[key],
      set: (key, value) => chrome.storage.local.set({ [key]: value }),
    },
    webNavigation: {
      onCommitted: listen(chrome.webNavigation.onCommitted, navigation),
      onHistoryStateUpdated: listen(chrome.webNavigation.onHistoryStateUpdated, navigation),
      onReferenceFragmentUpdated: listen(chrome.webNavigation.onReferenceFragmentUpdated, navigation),
      onBeforeNavigate: listen(chrome.webNavigation.onBeforeNavigate, navigation),
      onDOMContentLoaded: listen(chrome.webNavigation.onDOMContentLoaded, navigation),
      onCompleted: listen(chrome.webNavigation.onCompleted, navigation),
      onErrorOccurred: listen(
        chrome.webNavigation.onErrorOccurred,
        (l: (d: NavigationError) => void) => (d: { tabId: number; frameId: number; url: string; error: string }) =>
          l({ tabId: d.tabId, frameId: d.frameId, url: d.url, error: d.error }),
      ),
      onCreatedNavigationTarget: listen(chrome.webNavigation.onCreatedNavigationTarget, (l) => (d) => l({ sourceTabId: d.sourceTabId, tabId: d.tabId, url: d.url })),
    },
    debugger: {
      attach: (tabId) => chrome.debugger.attach({ tabId }, "1.3"),
      detach: (tabId) => chrome.debugger.detach({ tabId }),
      // Chrome answers a command without a result (e.g. Page.enable) with
      // undefined; callers read fields, so it becomes an empty object.
      send: async (target, method, params) => (await chrome.debugger.sendCommand(debuggee(target), method, params)) ?? {},
      onEvent: listen(chrome.debugger.onEvent, (l) => (source, method, params) => {
        if (source.tabId !== undefined) l({ tabId: source.tabId, sessionId: source.sessionId }, method, params ?? {});
      }),
      onDetach: listen(chrome.debugger.onDetach, (l) => (source, reason) => {
        if (source.tabId !== undefined) l(source.tabId, reason);
      }),
    },
    scripting: {
      injectFile: async (tabId, file) => {
        await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: [file], world: "ISOLATED" });
      },
      callAgent: async (tabId, name, args) => {
        const [r] = await chrome.scripting.executeScript({
          target: { tabId, frameIds: [0] },
          world: "ISOLATED",
          // Serialized into the page: self-contained, no imports. The name
          // is src/shared/page-agent.ts's PAGE_AGENT_GLOBAL.
          func: (fn: string, fnArgs: unknown[]) => {
            const agent: unknown = Reflect.get(globalThis, "__agenttab");
            if (typeof agent !== "object" || agent === null) return { missing: true, value: null };
            const f: unknown = Reflect.get(agent, fn);
            return { missing: false, value: typeof f === "function" ? Reflect.apply(f, agent, fnArgs) : null };
          },
          args: [name, args],
        });
        const out = (r?.result ?? { missing: true, value: null }) as { missing: boolean; value: unknown };
        return { missing: out.missing, value: out.value, documentId: r?.documentId ?? "" };
      },
      stopLoading: async (tabId) => {
        await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: "ISOLATED", func: () => window.stop() });
      },
      runMain: async (tabId, func, args) => {
        const [r] = await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: "MAIN", func, args });
        return r?.result;
      },
    },
    permissions: {
      contains: (permission) => chrome.permissions.contains({ permissions: [permission] }),
      request: (permission) => chrome.permissions.request({ permissions: [permission] }),
      remove: (permission) => chrome.permissions.remove({ permissions: [permission] }),
      onRemoved: listen(chrome.permissions.onRemoved, (l) => (p) => l(p.permissions ?? [])),
    },
    action: {
      setBadgeText: (text) => chrome.action.setBadgeText({ text }),
    },
    idle: {
      queryState: (thresholdSeconds) => chrome.idle.queryState(thresholdSeconds),
    },
    profile: realProfile(),
    alarms: {
      create: (name, delayMinutes) => chrome.alarms.create(name, { delayInMinutes: delayMinutes }),
      clear: async (name) => { await chrome.alarms.clear(name); },
      onAlarm: listen(chrome.alarms.onAlarm, (l) => (alarm) => l(alarm.name)),
    },
  };
}

interface ChromeEventLike<F> {
  addListener(f: F): void;
  removeListener(f: F): void;
}

function listen<F, A extends unknown[]>(event: ChromeEventLike<F>, adapt: (listener: (...args: A) => void) => F): Listen<A> {
  return (listener) => {
    const wrapped = adapt(listener);
    event.addListener(wrapped);
    return () => event.removeListener(wrapped);
  };
}

function navigation(l: (d: NavigationDetails) => void) {
  return (d: { tabId: number; frameId: number; url: string }) => l({ tabId: d.tabId, frameId: d.frameId, url: d.url });
}

function debuggee(t: DebuggerTarget): chrome.debugger.DebuggerSession {
  return t.sessionId === undefined ? { tabId: t.tabId } : { tabId: t.tabId, sessionId: t.sessionId };
}

function nativePort(port: chrome.runtime.Port): Port {
  return {
    postMessage: (m) => port.postMessage(m),
    disconnect: () => port.disconnect(),
    onMessage: listen(port.onMessage, (l) => (m: unknown) => l(m)),
    // lastError must be read inside the listener: Chrome clears it after,
    // and logs "Unchecked runtime.lastError" when nobody reads it.
    onDisconnect: listen(port.onDisconnect, (l) => () => l(chrome.runtime.lastError?.message)),
  };
}

// The listener keeps the channel open (returns true) and answers through
// sendResponse, which works on every Chrome the manifest admits (120+);
// returning a promise from onMessage is not supported there.
function answer(handler: MessageHandler) {
  return (message: unknown, sender: chrome.runtime.MessageSender, sendResponse: (response: unknown) => void): boolean => {
    const reply = handler(message, { id: sender.id, url: sender.url, tabId: sender.tab?.id });
    if (reply === undefined) return false;
    reply.then(sendResponse, (e: unknown) => sendResponse({ error: errorText(e) }));
    return true;
  };
}

function toTab(t: chrome.tabs.Tab): Tab {
  // Chrome leaves id unset only for tabs outside the tab strip (e.g.
  // devtools windows), which the extension never creates or owns.
  if (t.id === undefined) throw new Error("Chrome reported a tab without an id");
  return { id: t.id, windowId: t.windowId, groupId: t.groupId, url: t.url, pendingUrl: t.pendingUrl, title: t.title, status: t.status, active: t.active, openerTabId: t.openerTabId };
}

// Observed in Chromium 156: tabs.get and tabs.remove reject with
// "No tab with id: N." for a tab that does not exist (closed or never was).
async function ifTabExists<T>(f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (errorText(e).startsWith("No tab with id")) return undefined;
    throw e;
  }
}

const GROUP_COLORS = ["grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"] as const;
type GroupColor = (typeof GROUP_COLORS)[number];

function isGroupColor(c: string): c is GroupColor {
  return (GROUP_COLORS as readonly string[]).includes(c);
}

function groupColor(look: GroupLook): GroupColor {
  if (!isGroupColor(look.color)) throw new Error(`"${look.color}" is not a tab group colour`);
  return look.color;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
