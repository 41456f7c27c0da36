// src/chrome/profile.ts
function realProfile() {
  return {
    bookmarks: {
      search: async (query) => (await chrome.bookmarks.search(query)).map(toNode),
      getTree: async () => (await chrome.bookmarks.getTree()).map(toNode),
      getSubTree: (id) => ifBookmarkExists(async () => {
        const [node] = await chrome.bookmarks.getSubTree(id);
        return node === void 0 ? void 0 : toNode(node);
      }),
      get: (id) => ifBookmarkExists(async () => {
        const [node] = await chrome.bookmarks.get(id);
        return node === void 0 ? void 0 : toNode(node);
      }),
      create: async (props) => toNode(await chrome.bookmarks.create(props)),
      update: async (id, changes) => toNode(await chrome.bookmarks.update(id, changes)),
      move: async (id, destination) => toNode(await chrome.bookmarks.move(id, destination)),
      remove: (id) => chrome.bookmarks.remove(id)
    },
    history: {
      search: async (q) => (await chrome.history.search(q)).map((h) => ({ id: h.id, url: h.url, title: h.title, lastVisitTime: h.lastVisitTime, visitCount: h.visitCount }))
    },
    sessions: {
      getRecentlyClosed: async (maxResults) => (await chrome.sessions.getRecentlyClosed({ maxResults })).map(toSession),
      getDevices: async () => (await chrome.sessions.getDevices()).map((d) => ({ deviceName: d.deviceName, sessions: d.sessions.map(toSession) }))
    },
    downloads: {
      search: async (q) => (await chrome.downloads.search({ ...q, orderBy: ["-startTime"] })).map(toDownload),
      cancel: (id) => chrome.downloads.cancel(id),
      pause: (id) => chrome.downloads.pause(id),
      resume: (id) => chrome.downloads.resume(id)
    }
  };
}
function toNode(n) {
  return {
    id: n.id,
    parentId: n.parentId,
    index: n.index,
    title: n.title,
    url: n.url,
    dateAdded: n.dateAdded,
    unmodifiable: n.unmodifiable === "managed" ? "managed" : void 0,
    children: n.children?.map(toNode)
  };
}
function toTab(t) {
  return { sessionId: t.sessionId, url: t.url, title: t.title };
}
function toSession(s) {
  return {
    lastModified: s.lastModified,
    tab: s.tab === void 0 ? void 0 : toTab(s.tab),
    window: s.window === void 0 ? void 0 : { sessionId: s.window.sessionId, tabs: s.window.tabs?.map(toTab) }
  };
}
function toDownload(d) {
  return {
    id: d.id,
    url: d.url,
    finalUrl: d.finalUrl,
    filename: d.filename,
    state: d.state,
    paused: d.paused,
    canResume: d.canResume,
    bytesReceived: d.bytesReceived,
    totalBytes: d.totalBytes,
    startTime: d.startTime,
    error: d.error
  };
}
async function ifBookmarkExists(f) {
  try {
    return await f();
  } catch (e) {
    if ((e instanceof Error ? e.message : String(e)).startsWith("Can't find bookmark")) return void 0;
    throw e;
  }
}

// src/chrome/real.ts
function realChrome() {
  return {
    runtime: {
      id: chrome.runtime.id,
      version: chrome.runtime.getManifest().version,
      popupUrl: chrome.runtime.getURL(chrome.runtime.getManifest().action?.default_popup ?? ""),
      sendMessage: (message) => chrome.runtime.sendMessage(message),
      onMessage: (handler) => chrome.runtime.onMessage.addListener(answer(handler)),
      onStartup: listen(chrome.runtime.onStartup, (l) => () => l())
    },
    nativePort: (name) => nativePort(chrome.runtime.connectNative(name)),
    tabs: {
      create: async (props) => toTab2(await chrome.tabs.create(props)),
      get: (tabId) => ifTabExists(async () => toTab2(await chrome.tabs.get(tabId))),
      activeIn: async (windowId) => {
        const [tab] = await chrome.tabs.query({ active: true, windowId });
        return tab === void 0 ? void 0 : toTab2(tab);
      },
      inGroup: async (groupId) => (await chrome.tabs.query({ groupId })).map(toTab2),
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
        if (tab.id !== void 0) l(toTab2(tab));
      }),
      onUpdated: listen(chrome.tabs.onUpdated, (l) => (tabId, change, tab) => {
        l(tabId, { url: change.url, status: change.status, groupId: change.groupId }, toTab2(tab));
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
      retitle: async (groupId, title) => {
        await chrome.tabGroups.update(groupId, { title });
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
        return { id: w.id, tab: toTab2(tab) };
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
      },
      openForUser: async (tabId, windowId) => {
        await chrome.tabs.update(tabId, { active: true });
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
    idle: {
      queryState: (thresholdSeconds) => chrome.idle.queryState(thresholdSeconds)
    },
    profile: realProfile(),
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
  return (message, sender, sendResponse) => {
    const reply = handler(message, { id: sender.id, url: sender.url, tabId: sender.tab?.id });
    if (reply === void 0) return false;
    reply.then(sendResponse, (e) => sendResponse({ error: errorText(e) }));
    return true;
  };
}
function toTab2(t) {
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
var PauseByDebuggerCancel = "debugger_canceled";
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
var STAGE_REVIEW = "agenttab.stage_review";
var NOTICE_ACTION = "agenttab.notice";
var YOLO_SWITCH = "agenttab.yolo";
var END_TASK = "agenttab.end_task";
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
function describePause(phase, settling, reason) {
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
      if (reason === PauseByDebuggerCancel) {
        return { line: "Paused: you clicked Cancel on Chrome's debugging banner. Resume lets agents work again.", button: "Resume agents", busy: false };
      }
      return { line: "Agents are paused: no browser work runs until you resume.", button: "Resume agents", busy: false };
  }
}
function tabCount(n) {
  return count(n, "tab");
}
function count(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
var effectWords = {
  send: "send",
  publish: "publish",
  purchase: "make a purchase",
  delete: "delete",
  upload: "upload a file",
  authorization: "authorize access",
  permission_grant: "grant a permission",
  bookmark_remove: "remove a bookmark"
};
function describeEffect(taskLabel, effect) {
  return `${taskLabel} wants to ${effectWords[effect]}`;
}
function describeField(f) {
  const label = f.label === "" ? "(unlabelled field)" : f.label;
  const value = f.sensitive ? "(hidden)" : f.value === "" ? "(empty)" : f.value;
  return `${label}: ${value}`;
}
var reasonWords = {
  passkey: "a passkey",
  security_key: "a security key",
  captcha: "a CAPTCHA",
  login: "a sign-in",
  payment: "a payment step",
  account_recovery: "account recovery",
  verification: "a verification step",
  other: "a step only you can do"
};
function describeReason(taskLabel, reason) {
  return `${taskLabel} needs you for ${reasonWords[reason]}`;
}
function ago(ms) {
  const s = Math.floor(Math.max(0, ms) / 1e3);
  if (s < 5) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}
function timeLeft(ms) {
  const s = Math.ceil(ms / 1e3);
  if (s <= 0) return "expired";
  if (s < 60) return `${s} s left`;
  return `${Math.ceil(s / 60)} min left`;
}
function describeTaskState(connected, idleMs) {
  const state = connected ? "connected" : "disconnected";
  return idleMs === void 0 ? state : `${state} · last acted ${ago(idleMs)}`;
}

// src/popup/dom.ts
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className !== "") e.className = className;
  if (text !== void 0) e.textContent = text;
  return e;
}
function button(text, className, data, onClick) {
  const b = el("button", className, text);
  b.type = "button";
  for (const [k, v] of Object.entries(data)) b.setAttribute(`data-${k}`, v);
  b.addEventListener("click", onClick);
  return b;
}
function swatch(color) {
  const s = el("span", "swatch");
  s.style.background = color;
  return s;
}

// src/popup/notices.ts
function noticeItem(n, send2) {
  const li = el("li", "notice");
  li.setAttribute("data-notice", n.noticeId);
  const what = el("p", "what");
  what.append(swatch(n.taskColor), el("strong", "", describeReason(n.taskLabel, n.reason)), el("span", "origin", n.origin === "" ? "" : ` on ${n.origin}`));
  li.append(what);
  if (n.message !== "") li.append(el("p", "message", `"${n.message}"`));
  const data = { notice: n.noticeId };
  li.append(
    el("p", "age", `Asked ${ago(n.ageMs)}.`),
    button("Open tab", "open-tab", data, () => send2({ type: NOTICE_ACTION, noticeId: n.noticeId, action: "open_tab" })),
    button("Dismiss", "dismiss", data, () => send2({ type: NOTICE_ACTION, noticeId: n.noticeId, action: "dismiss" }))
  );
  return li;
}

// src/popup/stages.ts
function stageItem(s, send2) {
  const li = el("li", `stage ${s.state}`);
  li.setAttribute("data-handle", s.handle);
  const what = el("p", "what");
  what.append(swatch(s.taskColor), el("strong", "", describeEffect(s.taskLabel, s.effect)));
  const control = el("p", "control");
  control.append(s.control === "" ? "by an unnamed control" : `by pressing "${s.control}"`, el("span", "origin", ` on ${s.origin}`));
  li.append(what, control);
  if (s.fields.length > 0) {
    const fields = el("ul", "fields");
    fields.append(...s.fields.map((f) => el("li", f.sensitive ? "sensitive" : "", describeField(f))));
    li.append(fields);
  }
  const state = el("p", "state");
  const left = el("span", "left", timeLeft(s.expiresInMs));
  if (s.state === "pending") {
    const data = { handle: s.handle };
    state.append(
      button("Approve", "approve", data, () => send2({ type: STAGE_REVIEW, handle: s.handle, approve: true })),
      button("Deny", "deny", data, () => send2({ type: STAGE_REVIEW, handle: s.handle, approve: false })),
      left
    );
  } else {
    state.append(el("span", "approved-note", "approved — waiting for the agent's browser_commit"), left);
  }
  li.append(state);
  return li;
}

// src/popup/tasks.ts
var confirming = /* @__PURE__ */ new Set();
function taskItem(t, send2, rerender2) {
  const li = el("li", t.connected ? "task connected" : "task disconnected");
  li.setAttribute("data-task", t.taskId);
  const row = el("div", "row");
  row.append(swatch(t.color), el("span", "label", t.label), el("span", "count", tabCount(t.ownedTabs)));
  if (t.developer) row.append(el("span", "developer", "Developer mode"));
  const state = el("p", "state", describeTaskState(t.connected, t.idleMs));
  li.append(row, state);
  const data = { task: t.taskId };
  const end = (closeTabs) => {
    confirming.delete(t.taskId);
    send2({ type: END_TASK, taskId: t.taskId, closeTabs });
  };
  const actions = el("p", "actions");
  if (t.connected && !confirming.has(t.taskId)) {
    actions.append(
      button("End task…", "end-task", data, () => {
        confirming.add(t.taskId);
        rerender2();
      })
    );
  } else {
    actions.append(button("End, keep tabs", "end-keep", data, () => end(false)), button("End, close tabs", "end-close", data, () => end(true)));
    if (t.connected) {
      actions.append(
        button("Cancel", "end-cancel", data, () => {
          confirming.delete(t.taskId);
          rerender2();
        })
      );
    }
  }
  li.append(actions);
  return li;
}
function forgetEnded(tasks) {
  const live = new Set(tasks.map((t) => t.taskId));
  for (const id of confirming) if (!live.has(id)) confirming.delete(id);
}

// src/popup/main.ts
var REFRESH_MS = 1e3;
var api = realChrome();
function element(id) {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`popup.html has no #${id}`);
  return e;
}
function checkbox(id) {
  const e = element(id);
  if (!(e instanceof HTMLInputElement)) throw new Error(`popup.html's #${id} is not an input`);
  return e;
}
var hostLine = element("host");
var recovery = element("recovery");
var taskList = element("tasks");
var noTasks = element("no-tasks");
var pauseLine = element("pause-line");
var adoptionList = element("adoptions");
var automationRow = element("automation-row");
var automation = checkbox("automation");
var yoloRow = element("yolo-row");
var yolo = checkbox("yolo");
var yoloWarning = element("yolo-warning");
var stagesSection = element("stages-section");
var stageList = element("stages");
var noStages = element("no-stages");
var noticesSection = element("notices-section");
var noticeList = element("notices");
automation.addEventListener("change", () => {
  const change = automation.checked ? api.permissions.request("scripting") : api.permissions.remove("scripting");
  void change.finally(() => void refresh());
});
var yoloSwitching = false;
yolo.addEventListener("change", () => {
  yolo.disabled = true;
  yoloSwitching = true;
  const done = () => {
    yoloSwitching = false;
  };
  void api.runtime.sendMessage({ type: YOLO_SWITCH, on: yolo.checked }).then(
    (reply) => {
      done();
      if (isStatusReply(reply)) render(reply);
    },
    () => {
      done();
      void refresh();
    }
  );
});
var pauseButton = element("pause");
var running = true;
pauseButton.addEventListener("click", () => {
  const request = { type: PAUSE_REQUEST, paused: running };
  pauseButton.setAttribute("disabled", "");
  send(request);
});
function send(message) {
  void api.runtime.sendMessage(message).then(
    (reply) => {
      if (isStatusReply(reply)) render(reply);
    },
    () => refresh()
  );
}
function adoptionItem(a) {
  const li = el("li", "");
  const what = el("p", "what");
  const title = a.title === "" ? "this tab" : `"${a.title}"`;
  what.append(el("strong", "", a.taskLabel), " asks to work in ", el("span", "", title), el("span", "origin", a.origin === "" ? "" : ` (${a.origin})`), ".");
  li.append(
    what,
    button("Allow", "allow", {}, () => send({ type: ADOPTION_ANSWER, id: a.id, allow: true })),
    " ",
    button("Deny", "deny", {}, () => send({ type: ADOPTION_ANSWER, id: a.id, allow: false }))
  );
  return li;
}
var last;
function render(reply) {
  last = reply;
  const text = describeHost(reply.host);
  hostLine.textContent = text.line;
  recovery.textContent = text.recovery;
  recovery.hidden = text.recovery === "";
  running = reply.pause === LifecycleReady;
  automationRow.hidden = false;
  automation.checked = reply.automation;
  const pause = describePause(reply.pause, reply.settling, reply.pauseReason);
  pauseLine.textContent = pause.line;
  pauseLine.hidden = pause.line === "";
  pauseButton.hidden = false;
  pauseButton.textContent = pause.button;
  if (pause.busy) pauseButton.setAttribute("disabled", "");
  else pauseButton.removeAttribute("disabled");
  yoloRow.hidden = false;
  if (!yoloSwitching) {
    yolo.checked = reply.yolo;
    yolo.disabled = false;
  }
  yoloWarning.hidden = reply.yolo || reply.stages.length === 0;
  stagesSection.hidden = reply.yolo && reply.stages.length === 0;
  stageList.replaceChildren(...reply.stages.map((s) => stageItem(s, send)));
  noStages.hidden = reply.stages.length > 0;
  noticesSection.hidden = reply.notices.length === 0;
  noticeList.replaceChildren(...reply.notices.map((n) => noticeItem(n, send)));
  adoptionList.replaceChildren(...reply.adoptions.map(adoptionItem));
  forgetEnded(reply.tasks);
  taskList.replaceChildren(...reply.tasks.map((t) => taskItem(t, send, rerender)));
  noTasks.hidden = reply.tasks.length > 0;
}
function rerender() {
  if (last !== void 0) render(last);
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
  return typeof v === "object" && v !== null && "host" in v && "pause" in v && "settling" in v && "automation" in v && "tasks" in v && Array.isArray(v.tasks) && "adoptions" in v && Array.isArray(v.adoptions) && "yolo" in v && typeof v.yolo === "boolean" && "stages" in v && Array.isArray(v.stages) && "notices" in v && Array.isArray(v.notices);
}
void refresh();
setInterval(() => void refresh(), REFRESH_MS);
