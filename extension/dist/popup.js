// src/chrome/real.ts
function realChrome() {
  return {
    runtime: {
      id: chrome.runtime.id,
      version: chrome.runtime.getManifest().version,
      sendMessage: (message) => chrome.runtime.sendMessage(message),
      onMessage: (handler) => chrome.runtime.onMessage.addListener(answer(handler)),
      onStartup: listen(chrome.runtime.onStartup, (l) => () => l())
    },
    nativePort: (name) => nativePort(chrome.runtime.connectNative(name)),
    tabs: {
      create: async (props) => toTab(await chrome.tabs.create(props)),
      get: (tabId) => ifTabExists(async () => toTab(await chrome.tabs.get(tabId))),
      activeIn: async (windowId) => {
        const [tab] = await chrome.tabs.query({ active: true, windowId });
        return tab === void 0 ? void 0 : toTab(tab);
      },
      inGroup: async (groupId) => (await chrome.tabs.query({ groupId })).map(toTab),
      remove: async (tabId) => await ifTabExists(async () => {
        await chrome.tabs.remove(tabId);
        return true;
      }) ?? false,
      group: (options) => {
        const [first, ...rest] = options.tabIds;
        if (first === void 0) return Promise.reject(new Error("tabs.group needs at least one tab"));
        const tabIds = [first, ...rest];
        return "groupId" in options ? chrome.tabs.group({ tabIds, groupId: options.groupId }) : chrome.tabs.group({ tabIds, createProperties: options.createProperties });
      },
      ungroup: (tabId) => chrome.tabs.ungroup(tabId),
      onCreated: listen(chrome.tabs.onCreated, (l) => (tab) => {
        if (tab.id !== void 0) l(toTab(tab));
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
      goForward: (tabId) => chrome.tabs.goForward(tabId)
    },
    tabGroups: {
      update: async (groupId, look) => {
        await chrome.tabGroups.update(groupId, { title: look.title, color: groupColor(look), collapsed: look.collapsed });
      },
      get: async (groupId) => {
        try {
          const g = await chrome.tabGroups.get(groupId);
          return { title: g.title ?? "", color: g.color };
        } catch {
          return void 0;
        }
      }
    },
    windows: {
      create: async (props) => {
        const w = await chrome.windows.create(props);
        const tab = w?.tabs?.[0];
        if (w?.id === void 0 || tab === void 0) throw new Error("windows.create returned no window or no tab");
        return { id: w.id, tab: toTab(tab) };
      },
      lastFocusedNormal: async () => {
        try {
          return (await chrome.windows.getLastFocused({ windowTypes: ["normal"] })).id;
        } catch (e) {
          if (errorText(e).startsWith("No last-focused window")) return void 0;
          throw e;
        }
      }
    },
    userView: {
      onActivated: listen(chrome.tabs.onActivated, (l) => (info) => l(info.tabId, info.windowId)),
      onFocusChanged: listen(chrome.windows.onFocusChanged, (l) => (windowId) => l(windowId)),
      activeTabs: async () => (await chrome.tabs.query({ active: true })).flatMap((t) => t.id === void 0 ? [] : [{ tabId: t.id, windowId: t.windowId }]),
      focusedWindow: async () => {
        try {
          const w = await chrome.windows.getLastFocused();
          return w.focused && w.id !== void 0 ? w.id : chrome.windows.WINDOW_ID_NONE;
        } catch {
          return chrome.windows.WINDOW_ID_NONE;
        }
      },
      giveTabBack: async (tabId) => {
        await chrome.tabs.update(tabId, { active: true });
      },
      giveFocusBack: async (windowId) => {
        await chrome.windows.update(windowId, { focused: true });
      }
    },
    storageSession: {
      get: async (key) => (await chrome.storage.session.get(key))[key],
      set: (key, value) => chrome.storage.session.set({ [key]: value })
    },
    storageLocal: {
      get: async (key) => (await chrome.storage.local.get(key))[key],
      set: (key, value) => chrome.storage.local.set({ [key]: value })
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
        (l) => (d) => l({ tabId: d.tabId, frameId: d.frameId, url: d.url, error: d.error })
      ),
      onCreatedNavigationTarget: listen(chrome.webNavigation.onCreatedNavigationTarget, (l) => (d) => l({ sourceTabId: d.sourceTabId, tabId: d.tabId, url: d.url }))
    },
    debugger: {
      attach: (tabId) => chrome.debugger.attach({ tabId }, "1.3"),
      detach: (tabId) => chrome.debugger.detach({ tabId }),
      // Chrome answers a command without a result (e.g. Page.enable) with
      // undefined; callers read fields, so it becomes an empty object.
      send: async (target, method, params) => await chrome.debugger.sendCommand(debuggee(target), method, params) ?? {},
      onEvent: listen(chrome.debugger.onEvent, (l) => (source, method, params) => {
        if (source.tabId !== void 0) l({ tabId: source.tabId, sessionId: source.sessionId }, method, params ?? {});
      }),
      onDetach: listen(chrome.debugger.onDetach, (l) => (source, reason) => {
        if (source.tabId !== void 0) l(source.tabId, reason);
      })
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
          func: (fn, fnArgs) => {
            const agent = Reflect.get(globalThis, "__agenttab");
            if (typeof agent !== "object" || agent === null) return { missing: true, value: null };
            const f = Reflect.get(agent, fn);
            return { missing: false, value: typeof f === "function" ? Reflect.apply(f, agent, fnArgs) : null };
          },
          args: [name, args]
        });
        const out = r?.result ?? { missing: true, value: null };
        return { missing: out.missing, value: out.value, documentId: r?.documentId ?? "" };
      },
      stopLoading: async (tabId) => {
        await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: "ISOLATED", func: () => window.stop() });
      },
      runMain: async (tabId, func, args) => {
        const [r] = await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: "MAIN", func, args });
        return r?.result;
      }
    },
    permissions: {
      contains: (permission) => chrome.permissions.contains({ permissions: [permission] }),
      request: (permission) => chrome.permissions.request({ permissions: [permission] }),
      remove: (permission) => chrome.permissions.remove({ permissions: [permission] }),
      onRemoved: listen(chrome.permissions.onRemoved, (l) => (p) => l(p.permissions ?? []))
    },
    action: {
      setBadgeText: (text) => chrome.action.setBadgeText({ text })
    },
    alarms: {
      create: (name, delayMinutes) => chrome.alarms.create(name, { delayInMinutes: delayMinutes }),
      clear: async (name) => {
        await chrome.alarms.clear(name);
      },
      onAlarm: listen(chrome.alarms.onAlarm, (l) => (alarm) => l(alarm.name))
    }
  };
}
function listen(event, adapt) {
  return (listener) => {
    const wrapped = adapt(listener);
    event.addListener(wrapped);
    return () => event.removeListener(wrapped);
  };
}
function navigation(l) {
  return (d) => l({ tabId: d.tabId, frameId: d.frameId, url: d.url });
}
function debuggee(t) {
  return t.sessionId === void 0 ? { tabId: t.tabId } : { tabId: t.tabId, sessionId: t.sessionId };
}
function nativePort(port) {
  return {
    postMessage: (m) => port.postMessage(m),
    disconnect: () => port.disconnect(),
    onMessage: listen(port.onMessage, (l) => (m) => l(m)),
    // lastError must be read inside the listener: Chrome clears it after,
    // and logs "Unchecked runtime.lastError" when nobody reads it.
    onDisconnect: listen(port.onDisconnect, (l) => () => l(chrome.runtime.lastError?.message))
  };
}
function answer(handler) {
  return (message, _sender, sendResponse) => {
    const reply = handler(message);
    if (reply === void 0) return false;
    reply.then(sendResponse, (e) => sendResponse({ error: errorText(e) }));
    return true;
  };
}
function toTab(t) {
  if (t.id === void 0) throw new Error("Chrome reported a tab without an id");
  return { id: t.id, windowId: t.windowId, groupId: t.groupId, url: t.url, pendingUrl: t.pendingUrl, title: t.title, status: t.status, active: t.active, openerTabId: t.openerTabId };
}
async function ifTabExists(f) {
  try {
    return await f();
  } catch (e) {
    if (errorText(e).startsWith("No tab with id")) return void 0;
    throw e;
  }
}
var GROUP_COLORS = ["grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"];
function isGroupColor(c) {
  return GROUP_COLORS.includes(c);
}
function groupColor(look) {
  if (!isGroupColor(look.color)) throw new Error(`"${look.color}" is not a tab group colour`);
  return look.color;
}
function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

// src/protocol/generated.ts
var LifecycleReady = "ready";
var LifecyclePausing = "pausing";
var LifecyclePaused = "paused";
var DecodeError = class extends globalThis.Error {
  path;
  want;
  constructor(path, want) {
    super(`${path} must be ${want}`);
    this.name = "DecodeError";
    this.path = path;
    this.want = want;
  }
};

// src/shared/status.ts
var STATUS_REQUEST = "agenttab.status";
var ADOPTION_ANSWER = "agenttab.adoption";
var PAUSE_REQUEST = "agenttab.pause";

// src/popup/describe.ts
function describeHost(h) {
  switch (h.state) {
    case "connecting":
      return { line: "Connecting to the AgentTab host…", recovery: "" };
    case "connected":
      return { line: `Connected to the host${h.hostVersion === "" ? "" : ` ${h.hostVersion}`}.`, recovery: "" };
    case "reconnecting":
      return {
        line: `Not connected: ${h.reason.endsWith(".") ? h.reason.slice(0, -1) : h.reason}. Retrying in ${Math.ceil(h.retryInMs / 1e3)} s.`,
        recovery: "If this persists, run `agenttab install` and `agenttab doctor`."
      };
    case "rejected":
      return { line: `The host refused the extension (${h.code}): ${h.message}`, recovery: h.recovery };
  }
}
function describePause(phase, settling) {
  switch (phase) {
    case LifecycleReady:
      return { line: "", button: "Pause agents", busy: false };
    case LifecyclePausing:
      return {
        line: `Pausing: no new work starts; ${settling === 0 ? "waiting for the host to confirm" : `waiting for ${count(settling, "agent request")} already running to finish`}.`,
        button: "Pausing…",
        busy: true
      };
    case LifecyclePaused:
      return { line: "Agents are paused: no browser work runs until you resume.", button: "Resume agents", busy: false };
  }
}
function tabCount(n) {
  return count(n, "tab");
}
function count(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

// src/popup/main.ts
var REFRESH_MS = 1e3;
var api = realChrome();
function element(id) {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`popup.html has no #${id}`);
  return e;
}
var hostLine = element("host");
var recovery = element("recovery");
var taskList = element("tasks");
var noTasks = element("no-tasks");
var pauseLine = element("pause-line");
var adoptionList = element("adoptions");
var automationRow = element("automation-row");
var automation = element("automation");
automation.addEventListener("change", () => {
  const on = automation instanceof HTMLInputElement && automation.checked;
  const change = on ? api.permissions.request("scripting") : api.permissions.remove("scripting");
  void change.finally(() => void refresh());
});
var pauseButton = element("pause");
var running = true;
pauseButton.addEventListener("click", () => {
  const request = { type: PAUSE_REQUEST, paused: running };
  pauseButton.setAttribute("disabled", "");
  void api.runtime.sendMessage(request).then(
    (reply) => {
      if (isStatusReply(reply)) render(reply);
    },
    () => refresh()
  );
});
function taskItem(t) {
  const li = document.createElement("li");
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = t.color;
  const label = document.createElement("span");
  label.textContent = t.label;
  const count2 = document.createElement("span");
  count2.className = "count";
  count2.textContent = tabCount(t.ownedTabs);
  li.append(swatch, label, count2);
  return li;
}
function send(message) {
  void api.runtime.sendMessage(message).then((reply) => {
    if (isStatusReply(reply)) render(reply);
  });
}
function adoptionItem(a) {
  const li = document.createElement("li");
  const what = document.createElement("p");
  what.className = "what";
  const who = document.createElement("strong");
  who.textContent = a.taskLabel;
  const title = document.createElement("span");
  title.textContent = a.title === "" ? "this tab" : `"${a.title}"`;
  const origin = document.createElement("span");
  origin.className = "origin";
  origin.textContent = a.origin === "" ? "" : ` (${a.origin})`;
  what.append(who, " asks to work in ", title, origin, ".");
  const allow = document.createElement("button");
  allow.type = "button";
  allow.className = "allow";
  allow.textContent = "Allow";
  allow.addEventListener("click", () => send({ type: ADOPTION_ANSWER, id: a.id, allow: true }));
  const deny = document.createElement("button");
  deny.type = "button";
  deny.className = "deny";
  deny.textContent = "Deny";
  deny.addEventListener("click", () => send({ type: ADOPTION_ANSWER, id: a.id, allow: false }));
  li.append(what, allow, " ", deny);
  return li;
}
function render(reply) {
  const text = describeHost(reply.host);
  hostLine.textContent = text.line;
  recovery.textContent = text.recovery;
  recovery.hidden = text.recovery === "";
  running = reply.pause === LifecycleReady;
  automationRow.hidden = false;
  if (automation instanceof HTMLInputElement) automation.checked = reply.automation;
  const pause = describePause(reply.pause, reply.settling);
  pauseLine.textContent = pause.line;
  pauseLine.hidden = pause.line === "";
  pauseButton.hidden = false;
  pauseButton.textContent = pause.button;
  if (pause.busy) pauseButton.setAttribute("disabled", "");
  else pauseButton.removeAttribute("disabled");
  adoptionList.replaceChildren(...reply.adoptions.map(adoptionItem));
  taskList.replaceChildren(...reply.tasks.map(taskItem));
  noTasks.hidden = reply.tasks.length > 0;
}
async function refresh() {
  const request = { type: STATUS_REQUEST };
  try {
    const reply = await api.runtime.sendMessage(request);
    if (isStatusReply(reply)) render(reply);
  } catch {
    hostLine.textContent = "The AgentTab service worker is not answering.";
  }
}
function isStatusReply(v) {
  return typeof v === "object" && v !== null && "host" in v && "pause" in v && "settling" in v && "automation" in v && "tasks" in v && Array.isArray(v.tasks) && "adoptions" in v && Array.isArray(v.adoptions);
}
void refresh();
setInterval(() => void refresh(), REFRESH_MS);
