// src/chrome/real.ts
function realChrome() {
  return {
    runtime: {
      id: chrome.runtime.id,
      version: chrome.runtime.getManifest().version,
      sendMessage: (message) => chrome.runtime.sendMessage(message),
      onMessage: (handler) => chrome.runtime.onMessage.addListener(answer(handler))
    },
    nativePort: (name) => nativePort(chrome.runtime.connectNative(name)),
    tabs: {
      create: async (props) => toTab(await chrome.tabs.create(props)),
      get: (tabId) => ifTabExists(async () => toTab(await chrome.tabs.get(tabId))),
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
      onUpdated: listen(chrome.tabs.onUpdated, (l) => (tabId, change, tab) => {
        l(tabId, { url: change.url, status: change.status, groupId: change.groupId }, toTab(tab));
      }),
      onRemoved: listen(chrome.tabs.onRemoved, (l) => (tabId) => l(tabId)),
      onAttached: listen(chrome.tabs.onAttached, (l) => (tabId, info) => l(tabId, info.newWindowId))
    },
    tabGroups: {
      update: async (groupId, look2) => {
        await chrome.tabGroups.update(groupId, { title: look2.title, color: groupColor(look2), collapsed: look2.collapsed });
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
    storageSession: {
      get: async (key) => (await chrome.storage.session.get(key))[key],
      set: (key, value) => chrome.storage.session.set({ [key]: value })
    },
    webNavigation: {
      onCommitted: listen(chrome.webNavigation.onCommitted, navigation),
      onHistoryStateUpdated: listen(chrome.webNavigation.onHistoryStateUpdated, navigation),
      onReferenceFragmentUpdated: listen(chrome.webNavigation.onReferenceFragmentUpdated, navigation)
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
  return { id: t.id, windowId: t.windowId, groupId: t.groupId, url: t.url, pendingUrl: t.pendingUrl, title: t.title, status: t.status };
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
function groupColor(look2) {
  if (!isGroupColor(look2.color)) throw new Error(`"${look2.color}" is not a tab group colour`);
  return look2.color;
}
function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

// src/background/clock.ts
var realClock = {
  after(ms, f) {
    const timer = setTimeout(f, ms);
    return () => clearTimeout(timer);
  }
};

// src/protocol/generated.ts
var OutcomeNotStarted = "not_started";
var OutcomeDispatched = "dispatched";
var OutcomeUnknown = "unknown";
var RouteFull = "full";
var RouteTabOnly = "tab_only";
var PlacementNewWindow = "new_window";
var RevokeClosed = "closed";
var RevokeUngrouped = "ungrouped";
var RevokeMovedOut = "moved_out";
var RevokeInconsistent = "inconsistent";
var CodeUnknownMethod = "unknown_method";
var CodeInvalidParams = "invalid_params";
var CodeNotOwned = "not_owned";
var CodeNewWindowNotEligible = "new_window_not_eligible";
var CodeGroupFailed = "group_failed";
var CodeChromeError = "chrome_error";
var CodeInternal = "internal_error";
var Version = 1;
var NativeHostName = "com.agenttab.host";
var NativeTypeHello = "hello";
var NativeTypeWelcome = "welcome";
var NativeTypeReject = "reject";
var NativeTypeRequest = "request";
var NativeTypeResponse = "response";
var NativeTypeEvent = "event";
var NativeReconcile = "reconcile";
var NativeOpen = "open";
var NativeTabs = "tabs";
var NativeFinish = "finish";
var NativePing = "ping";
var EventRevoked = "revoked";
var EventRevision = "revision";

// src/background/failure.ts
var Failure = class extends Error {
  detail;
  constructor(code, outcome, message, recovery) {
    super(`${code}: ${message}`);
    this.name = "Failure";
    this.detail = { code, message, recovery, outcome };
  }
};

// src/background/decode.ts
function invalid(path, want) {
  throw new Failure(
    CodeInvalidParams,
    OutcomeNotStarted,
    `${path} must be ${want}`,
    "The host sent a request the extension cannot read; update AgentTab so the host and the extension match."
  );
}
function isFields(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function fields(v, path) {
  return isFields(v) ? v : invalid(path, "an object");
}
function str(v, path) {
  return typeof v === "string" ? v : invalid(path, "a string");
}
function int(v, path) {
  return typeof v === "number" && Number.isSafeInteger(v) ? v : invalid(path, "an integer");
}
function list(v, path, item) {
  if (v === null || v === void 0) return [];
  if (!Array.isArray(v)) return invalid(path, "a list");
  return v.map((x, i) => item(x, `${path}[${i}]`));
}
function placement(v, path) {
  return v === "tab" || v === "new_window" ? v : invalid(path, `"tab" or "new_window"`);
}
function look(v, path) {
  const f = fields(v, path);
  return { task_id: str(f["task_id"], `${path}.task_id`), label: str(f["label"], `${path}.label`), color: str(f["color"], `${path}.color`) };
}
function openParams(v) {
  const f = fields(v, "params");
  return {
    task: look(f["task"], "params.task"),
    url: str(f["url"], "params.url"),
    placement: placement(f["placement"], "params.placement"),
    load_wait_ms: int(f["load_wait_ms"], "params.load_wait_ms")
  };
}
function tabsParams(v) {
  const f = fields(v, "params");
  return { task_id: str(f["task_id"], "params.task_id"), tab_ids: list(f["tab_ids"], "params.tab_ids", int) };
}
function finishParams(v) {
  const f = fields(v, "params");
  return { task_id: str(f["task_id"], "params.task_id"), close: list(f["close"], "params.close", int) };
}
function reconcileTab(v, path) {
  const f = fields(v, path);
  return {
    tab_id: int(f["tab_id"], `${path}.tab_id`),
    group_id: int(f["group_id"], `${path}.group_id`),
    revision_floor: int(f["revision_floor"], `${path}.revision_floor`)
  };
}
function reconcileTask(v, path) {
  const f = fields(v, path);
  return { task: look(f["task"], `${path}.task`), tabs: list(f["tabs"], `${path}.tabs`, reconcileTab) };
}
function reconcileParams(v) {
  const f = fields(v, "params");
  return { tasks: list(f["tasks"], "params.tasks", reconcileTask) };
}

// src/background/log.ts
var consoleLog = {
  info: (m) => console.info(`AgentTab: ${m}`),
  warn: (m) => console.warn(`AgentTab: ${m}`)
};
function errorText2(e) {
  return e instanceof Error ? e.message : String(e);
}

// src/background/finish.ts
async function finish(ctx2, p) {
  const record = ctx2.ownership.dropTask(p.task_id);
  await ctx2.ownership.persist();
  const released = [];
  const closed = [];
  const close = new Set(p.close);
  for (const [tabId, owned] of record?.tabs ?? []) {
    if (close.has(tabId)) {
      const result = await removeTab(ctx2, tabId);
      if (result === "closed") closed.push(tabId);
      if (result !== "failed") continue;
    }
    const tab = await ctx2.chrome.tabs.get(tabId);
    if (tab === void 0) continue;
    released.push(tabId);
    if (tab.groupId !== owned.groupId) continue;
    await ctx2.chrome.tabs.ungroup(tabId).catch((e) => ctx2.log.warn(`ungroup ${tabId} at finish: ${errorText2(e)}`));
  }
  return { released, closed };
}
async function removeTab(ctx2, tabId) {
  try {
    return await ctx2.chrome.tabs.remove(tabId) ? "closed" : "gone";
  } catch (e) {
    ctx2.log.warn(`close ${tabId} at finish: ${errorText2(e)}`);
    return "failed";
  }
}

// src/chrome/api.ts
var NO_GROUP = -1;

// src/background/route.ts
var RESTRICTED_SCHEMES = /* @__PURE__ */ new Set(["chrome:", "chrome-untrusted:", "chrome-extension:", "devtools:", "view-source:"]);
function routeOf(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return RouteTabOnly;
  }
  if (RESTRICTED_SCHEMES.has(u.protocol)) return RouteTabOnly;
  if (u.protocol === "about:") return u.pathname === "blank" ? RouteFull : RouteTabOnly;
  if (isWebStore(u)) return RouteTabOnly;
  return RouteFull;
}
function isWebStore(u) {
  if (u.protocol !== "https:" && u.protocol !== "http:") return false;
  if (u.hostname === "chromewebstore.google.com") return true;
  return u.hostname === "chrome.google.com" && u.pathname.startsWith("/webstore");
}

// src/background/ext-tab.ts
function extTab(tab, revision) {
  const url = tab.url || tab.pendingUrl || "";
  return {
    tab_id: tab.id,
    window_id: tab.windowId,
    group_id: tab.groupId,
    url,
    title: tab.title ?? "",
    route: routeOf(url),
    revision,
    loading: tab.status === "loading"
  };
}
function lossReason(tab, groupId) {
  if (tab === void 0) return RevokeClosed;
  if (tab.groupId === groupId) return void 0;
  return tab.groupId === NO_GROUP ? RevokeUngrouped : RevokeMovedOut;
}

// src/background/revoke.ts
async function revoke(ctx2, tabId, reason, report) {
  const owner = ctx2.ownership.drop(tabId);
  if (owner === void 0) return void 0;
  const revocation = { task_id: owner.taskId, tab_id: tabId, reason };
  await ctx2.ownership.persist();
  if (report === "event") ctx2.notify(EventRevoked, revocation);
  return revocation;
}

// src/background/list-tabs.ts
async function listTabs(ctx2, p) {
  const tabs = [];
  const revoked = [];
  for (const tabId of p.tab_ids) {
    const owner = ctx2.ownership.owner(tabId);
    if (owner?.taskId !== p.task_id) {
      revoked.push({ task_id: p.task_id, tab_id: tabId, reason: RevokeInconsistent });
      continue;
    }
    const tab = await ctx2.chrome.tabs.get(tabId);
    const lost = lossReason(tab, owner.tab.groupId);
    if (tab === void 0 || lost !== void 0) {
      const reason = lost ?? RevokeClosed;
      revoked.push(await revoke(ctx2, tabId, reason, "answer") ?? { task_id: p.task_id, tab_id: tabId, reason });
      continue;
    }
    tabs.push(extTab(tab, owner.tab.revision));
  }
  return { tabs, revoked };
}

// src/background/load-wait.ts
function waitForLoad(api2, clock, tabId, timeoutMs) {
  return new Promise((resolve) => {
    const stops = [];
    const done = () => {
      for (const stop of stops) stop();
      resolve();
    };
    stops.push(
      api2.tabs.onUpdated((id, change) => {
        if (id === tabId && change.status === "complete") done();
      }),
      api2.tabs.onRemoved((id) => {
        if (id === tabId) done();
      }),
      clock.after(Math.max(0, timeoutMs), done)
    );
    api2.tabs.get(tabId).then(
      (tab) => {
        if (tab === void 0 || tab.status === "complete") done();
      },
      () => done()
    );
  });
}

// src/background/placement.ts
async function defaultWindow(api2, ownership2, taskId) {
  return ownership2.latestWindow(taskId) ?? await api2.windows.lastFocusedNormal();
}

// src/background/open.ts
async function open(ctx2, p) {
  const taskId = p.task.task_id;
  if (p.placement === PlacementNewWindow && (ctx2.ownership.task(taskId)?.tabs.size ?? 0) > 0) {
    throw new Failure(
      CodeNewWindowNotEligible,
      OutcomeNotStarted,
      "placement new_window is only accepted while the task owns no tabs",
      "Open the page with the default placement; it goes to the window of the task's most recent tab."
    );
  }
  const { tab, windowId } = await create(ctx2, p);
  const groupId = await group(ctx2, p, tab.id, windowId);
  ctx2.ownership.add(p.task, tab.id, groupId, windowId);
  await ctx2.ownership.persist();
  await waitForLoad(ctx2.chrome, ctx2.clock, tab.id, p.load_wait_ms);
  const now = await ctx2.chrome.tabs.get(tab.id);
  const owner = ctx2.ownership.owner(tab.id);
  const lost = lossReason(now, groupId);
  if (now === void 0 || owner?.taskId !== taskId || lost !== void 0) {
    await revoke(ctx2, tab.id, lost ?? RevokeInconsistent, "answer");
    throw new Failure(
      CodeNotOwned,
      OutcomeDispatched,
      "the tab was opened, but it was closed or moved out of the task's group before it could be reported",
      "The user took the tab; open the page again if the task still needs it."
    );
  }
  return { tab: extTab(now, owner.tab.revision) };
}
async function create(ctx2, p) {
  try {
    const windowId = p.placement === PlacementNewWindow ? void 0 : await defaultWindow(ctx2.chrome, ctx2.ownership, p.task.task_id);
    if (windowId === void 0) {
      const w = await ctx2.chrome.windows.create({ url: p.url, focused: false, state: "normal" });
      return { tab: w.tab, windowId: w.id };
    }
    const tab = await ctx2.chrome.tabs.create({ url: p.url, windowId, active: false });
    return { tab, windowId: tab.windowId };
  } catch (e) {
    throw new Failure(
      CodeChromeError,
      OutcomeNotStarted,
      `Chrome did not open the tab: ${errorText2(e)}`,
      "Retry the open; if Chrome keeps refusing, check that a normal browser window can be opened."
    );
  }
}
async function group(ctx2, p, tabId, windowId) {
  const existing = ctx2.ownership.groupIn(p.task.task_id, windowId);
  try {
    if (existing !== void 0) return await ctx2.chrome.tabs.group({ groupId: existing, tabIds: [tabId] });
    const groupId = await ctx2.chrome.tabs.group({ tabIds: [tabId], createProperties: { windowId } });
    await ctx2.chrome.tabGroups.update(groupId, { title: p.task.label, color: p.task.color, collapsed: false });
    return groupId;
  } catch (e) {
    await ctx2.chrome.tabs.remove(tabId).catch((r) => ctx2.log.warn(`closing tab ${tabId} after a grouping failure: ${errorText2(r)}`));
    throw new Failure(
      CodeGroupFailed,
      OutcomeNotStarted,
      `Chrome could not put the new tab in the task's group (${errorText2(e)}); the tab was closed again`,
      "Retry the open. AgentTab never keeps a tab it cannot show in the task's group."
    );
  }
}

// src/background/reconcile.ts
async function reconcile(ctx2, p) {
  const { ownership: ownership2 } = ctx2;
  const listed = new Set(p.tasks.map((t) => t.task.task_id));
  for (const taskId of ownership2.taskIds()) {
    if (!listed.has(taskId)) ownership2.dropTask(taskId);
  }
  const kept = [];
  const revoked = [];
  for (const t of p.tasks) {
    await reconcileTask2(ctx2, t, kept, revoked);
  }
  await ownership2.persist();
  return { kept, revoked };
}
async function reconcileTask2(ctx2, t, kept, revoked) {
  const { ownership: ownership2 } = ctx2;
  const taskId = t.task.task_id;
  const record = ownership2.ensureTask(t.task);
  const hostTabs = new Set(t.tabs.map((h) => h.tab_id));
  const lose = (tabId, reason) => {
    ownership2.drop(tabId);
    revoked.push({ task_id: taskId, tab_id: tabId, reason });
  };
  for (const tabId of [...record.tabs.keys()]) {
    if (!hostTabs.has(tabId)) lose(tabId, RevokeInconsistent);
  }
  for (const h of t.tabs) {
    const owned = record.tabs.get(h.tab_id);
    if (owned === void 0 || owned.groupId !== h.group_id) {
      lose(h.tab_id, RevokeInconsistent);
      continue;
    }
    const tab = await ctx2.chrome.tabs.get(h.tab_id);
    if (tab === void 0 || lossReason(tab, owned.groupId) !== void 0) {
      lose(h.tab_id, tab === void 0 ? RevokeClosed : RevokeInconsistent);
      continue;
    }
    ownership2.raise(h.tab_id, h.revision_floor);
    kept.push(extTab(tab, owned.revision));
  }
}

// src/background/scheduler.ts
var Scheduler = class {
  globalTail = Promise.resolve();
  tails = /* @__PURE__ */ new Map();
  task(taskId, f) {
    const before = [this.tails.get(taskId) ?? Promise.resolve(), this.globalTail];
    const run = Promise.all(before).then(f);
    const tail = settled(run);
    this.tails.set(taskId, tail);
    void tail.then(() => {
      if (this.tails.get(taskId) === tail) this.tails.delete(taskId);
    });
    return run;
  }
  global(f) {
    const run = Promise.all([this.globalTail, ...this.tails.values()]).then(f);
    this.globalTail = settled(run);
    return run;
  }
};
function settled(p) {
  return p.then(
    () => void 0,
    () => void 0
  );
}

// src/background/dispatch.ts
function dispatcher(ctx2, ready2) {
  const scheduler = new Scheduler();
  const call = async (method, params) => {
    switch (method) {
      case NativePing:
        return {};
      case NativeReconcile: {
        const p = reconcileParams(params);
        return scheduler.global(() => reconcile(ctx2, p));
      }
      case NativeOpen: {
        const p = openParams(params);
        return scheduler.task(p.task.task_id, () => open(ctx2, p));
      }
      case NativeTabs: {
        const p = tabsParams(params);
        return scheduler.task(p.task_id, () => listTabs(ctx2, p));
      }
      case NativeFinish: {
        const p = finishParams(params);
        return scheduler.task(p.task_id, () => finish(ctx2, p));
      }
    }
    throw new Failure(
      CodeUnknownMethod,
      OutcomeNotStarted,
      `the extension has no method ${JSON.stringify(method)}`,
      "Update AgentTab so the host and the extension match."
    );
  };
  return async (request) => {
    try {
      await ready2;
      return { type: NativeTypeResponse, id: request.id, result: await call(request.method, request.params) };
    } catch (e) {
      if (e instanceof Failure) return { type: NativeTypeResponse, id: request.id, error: e.detail };
      ctx2.log.warn(`${request.method} failed: ${errorText2(e)}`);
      return {
        type: NativeTypeResponse,
        id: request.id,
        error: {
          code: CodeInternal,
          message: `${request.method} failed in the extension: ${errorText2(e)}`,
          recovery: "Check the task's tabs with browser_tabs before repeating the step.",
          outcome: OutcomeUnknown
        }
      };
    }
  };
}

// src/background/backoff.ts
var FIRST_DELAY_MS = 500;
var MAX_DELAY_MS = 3e4;
var Backoff = class {
  next = FIRST_DELAY_MS;
  /** The delay before the next attempt; each call doubles the following one. */
  delay() {
    const d = this.next;
    this.next = Math.min(this.next * 2, MAX_DELAY_MS);
    return d;
  }
  reset() {
    this.next = FIRST_DELAY_MS;
  }
};

// src/background/host-connection.ts
var RECONNECT_ALARM = "agenttab.reconnect";
var ALARM_MINUTES = 0.5;
var HostConnection = class {
  constructor(chrome2, handle, clock, log) {
    this.chrome = chrome2;
    this.handle = handle;
    this.clock = clock;
    this.log = log;
    this.chrome.alarms.onAlarm((name) => {
      if (name === RECONNECT_ALARM) this.connect();
    });
  }
  chrome;
  handle;
  clock;
  log;
  port;
  welcomed = false;
  current = { state: "connecting" };
  backoff = new Backoff();
  cancelRetry;
  get state() {
    return this.current;
  }
  /** Opens the port unless one is open; safe to call at any time. */
  connect() {
    if (this.port !== void 0) return;
    this.cancelRetry?.();
    this.cancelRetry = void 0;
    const port = this.chrome.nativePort(NativeHostName);
    this.port = port;
    this.welcomed = false;
    this.current = { state: "connecting" };
    port.onMessage((m) => this.receive(port, m));
    port.onDisconnect((error) => this.disconnected(port, error));
    const hello = {
      type: NativeTypeHello,
      protocol_version: Version,
      extension_id: this.chrome.runtime.id,
      extension_version: this.chrome.runtime.version
    };
    this.post(port, hello);
  }
  /** Sends an event to a welcomed host. Without one it is dropped: the host reconciles when it comes back. */
  notify(event, params) {
    if (this.port === void 0 || !this.welcomed) return;
    const message = { type: NativeTypeEvent, event, params };
    this.post(this.port, message);
  }
  receive(port, m) {
    if (port !== this.port || !isFields(m)) return;
    switch (m["type"]) {
      case NativeTypeWelcome:
        return this.welcome(port, m);
      case NativeTypeReject:
        return this.rejected(m["error"]);
      case NativeTypeRequest:
        return this.request(port, m);
      default:
        this.log.warn(`ignored a host message of type ${JSON.stringify(m["type"])}`);
    }
  }
  welcome(port, m) {
    if (m["protocol_version"] !== Version) {
      this.log.warn(`host speaks protocol ${JSON.stringify(m["protocol_version"])}, extension speaks ${Version}`);
      this.current = {
        state: "rejected",
        code: "protocol_version_mismatch",
        message: `the host speaks protocol ${JSON.stringify(m["protocol_version"])}; this extension speaks ${Version}`,
        recovery: "Install matching versions of the agenttab host and the extension."
      };
      port.disconnect();
      this.disconnected(port, void 0);
      return;
    }
    this.welcomed = true;
    this.backoff.reset();
    this.current = { state: "connected", hostVersion: typeof m["host_version"] === "string" ? m["host_version"] : "" };
    void this.chrome.alarms.clear(RECONNECT_ALARM).catch((e) => this.log.warn(`alarms.clear: ${errorText2(e)}`));
    this.log.info(`connected to host ${this.current.hostVersion}`);
  }
  // The host exits after a reject, so the port disconnects next and the
  // usual backoff applies; the reason stays visible in the popup.
  rejected(error) {
    const f = isFields(error) ? error : {};
    const text = (k) => typeof f[k] === "string" ? f[k] : "";
    this.current = { state: "rejected", code: text("code"), message: text("message"), recovery: text("recovery") };
    this.log.warn(`host rejected the handshake: ${text("code")}: ${text("message")}`);
  }
  request(port, m) {
    const id = m["id"];
    if (!this.welcomed || typeof id !== "number" || typeof m["method"] !== "string") {
      this.log.warn("ignored a request before the welcome or without an id and method");
      return;
    }
    const request = { type: NativeTypeRequest, id, method: m["method"], params: m["params"] };
    void this.handle(request).then((response) => {
      if (port === this.port) this.post(port, response);
    });
  }
  disconnected(port, error) {
    if (port !== this.port) return;
    this.port = void 0;
    this.welcomed = false;
    const delay = this.backoff.delay();
    if (this.current.state !== "rejected") {
      this.current = { state: "reconnecting", reason: error ?? "the host closed the connection", retryInMs: delay };
    }
    this.log.info(`native port closed (${error ?? "no error"}); retrying in ${delay} ms`);
    this.cancelRetry = this.clock.after(delay, () => this.connect());
    void this.chrome.alarms.create(RECONNECT_ALARM, ALARM_MINUTES).catch((e) => this.log.warn(`alarms.create: ${errorText2(e)}`));
  }
  // Chrome throws when posting to a port that has just disconnected; the
  // disconnect handler then does the rest.
  post(port, message) {
    try {
      port.postMessage(message);
    } catch (e) {
      this.log.warn(`postMessage failed: ${errorText2(e)}`);
    }
  }
};

// src/background/ownership.ts
var STORAGE_KEY = "ownership";
var Ownership = class {
  constructor(storage, log) {
    this.storage = storage;
    this.log = log;
  }
  storage;
  log;
  tasks = /* @__PURE__ */ new Map();
  opened = 0;
  writes = Promise.resolve();
  /** Rebuilds the map from storage.session; a record it cannot read is dropped. */
  async load() {
    const raw = await this.storage.get(STORAGE_KEY);
    const stored = parseStored(raw);
    if (stored === void 0) {
      if (raw !== void 0) this.log.warn("dropped an unreadable ownership record from storage.session");
      return;
    }
    this.opened = stored.opened;
    for (const t of stored.tasks) {
      this.tasks.set(t.look.task_id, { look: t.look, tabs: new Map(t.tabs) });
    }
  }
  task(taskId) {
    return this.tasks.get(taskId);
  }
  taskIds() {
    return [...this.tasks.keys()];
  }
  /** The task's record, created or given the host's current look. */
  ensureTask(look2) {
    const existing = this.tasks.get(look2.task_id);
    if (existing !== void 0) {
      existing.look = look2;
      return existing;
    }
    const created = { look: look2, tabs: /* @__PURE__ */ new Map() };
    this.tasks.set(look2.task_id, created);
    return created;
  }
  owner(tabId) {
    for (const [taskId, rec] of this.tasks) {
      const tab = rec.tabs.get(tabId);
      if (tab !== void 0) return { taskId, tab };
    }
    return void 0;
  }
  /** Records a created, grouped tab at revision 1. */
  add(look2, tabId, groupId, windowId) {
    const tab = { groupId, windowId, revision: 1, source: "created", opened: ++this.opened };
    this.ensureTask(look2).tabs.set(tabId, tab);
    return tab;
  }
  /** Removes one tab's record; undefined when nobody owned it. */
  drop(tabId) {
    const owner = this.owner(tabId);
    if (owner !== void 0) this.tasks.get(owner.taskId)?.tabs.delete(tabId);
    return owner;
  }
  /** Advances a tab's page revision; undefined when nobody owns the tab. */
  bump(tabId) {
    const owner = this.owner(tabId);
    if (owner === void 0) return void 0;
    return ++owner.tab.revision;
  }
  /** Raises a tab's revision to at least floor (the host's revision_floor). */
  raise(tabId, floor) {
    const owner = this.owner(tabId);
    if (owner !== void 0) owner.tab.revision = Math.max(owner.tab.revision, floor);
  }
  /** Notes that an owned tab now lives in another window (its group moved with it). */
  moveWindow(tabId, windowId) {
    const owner = this.owner(tabId);
    if (owner !== void 0) owner.tab.windowId = windowId;
  }
  dropTask(taskId) {
    const rec = this.tasks.get(taskId);
    this.tasks.delete(taskId);
    return rec;
  }
  /**
   * The task's group in a window: groups by window are derived from the
   * owned tabs, so a group with no owned tab left (Chrome removes an empty
   * group) is never offered again.
   */
  groupIn(taskId, windowId) {
    return this.newest(taskId, (t) => t.windowId === windowId)?.groupId;
  }
  /** The window of the task's most recently opened owned tab. */
  latestWindow(taskId) {
    return this.newest(taskId, () => true)?.windowId;
  }
  newest(taskId, keep) {
    let best;
    for (const t of this.tasks.get(taskId)?.tabs.values() ?? []) {
      if (keep(t) && (best === void 0 || t.opened > best.opened)) best = t;
    }
    return best;
  }
  /**
   * Writes the whole map. Writes are chained so they reach storage in call
   * order, and each one takes the map as it is when it runs, so the last
   * write always carries the latest state.
   */
  persist() {
    const write = this.writes.then(() => this.storage.set(STORAGE_KEY, this.snapshot()));
    this.writes = write.catch((e) => this.log.warn(`storage.session write failed: ${errorText2(e)}`));
    return write;
  }
  snapshot() {
    return {
      v: 1,
      opened: this.opened,
      tasks: [...this.tasks.values()].map((t) => ({ look: t.look, tabs: [...t.tabs.entries()] }))
    };
  }
};
function parseStored(v) {
  if (!isObject(v) || v["v"] !== 1 || typeof v["opened"] !== "number" || !Array.isArray(v["tasks"])) return void 0;
  const tasks = [];
  for (const t of v["tasks"]) {
    if (!isObject(t) || !isLook(t["look"]) || !Array.isArray(t["tabs"])) return void 0;
    const tabs = [];
    for (const entry of t["tabs"]) {
      if (!Array.isArray(entry)) return void 0;
      const [id, tab] = entry;
      if (typeof id !== "number" || !isOwnedTab(tab)) return void 0;
      tabs.push([id, tab]);
    }
    tasks.push({ look: t["look"], tabs });
  }
  return { v: 1, opened: v["opened"], tasks };
}
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function isLook(v) {
  return isObject(v) && typeof v["task_id"] === "string" && typeof v["label"] === "string" && typeof v["color"] === "string";
}
function isOwnedTab(v) {
  return isObject(v) && typeof v["groupId"] === "number" && typeof v["windowId"] === "number" && typeof v["revision"] === "number" && v["source"] === "created" && typeof v["opened"] === "number";
}

// src/shared/status.ts
var STATUS_REQUEST = "agenttab.status";
function isStatusRequest(v) {
  return typeof v === "object" && v !== null && "type" in v && v.type === STATUS_REQUEST;
}

// src/background/popup-status.ts
function servePopup(api2, ownership2, ready2, host) {
  api2.runtime.onMessage((message) => {
    if (!isStatusRequest(message)) return void 0;
    return ready2.then(() => ({
      host: host(),
      tasks: ownership2.taskIds().flatMap((id) => {
        const t = ownership2.task(id);
        return t === void 0 ? [] : [{ label: t.look.label, color: t.look.color, ownedTabs: t.tabs.size }];
      })
    }));
  });
}

// src/background/when-ready.ts
function whenReady(ready2, log, what, work) {
  void ready2.then(work).catch((e) => log.warn(`${what}: ${errorText2(e)}`));
}

// src/background/watch-ownership.ts
function watchOwnership(ctx2, ready2) {
  const { chrome: api2, ownership: ownership2, log } = ctx2;
  api2.tabs.onRemoved(
    (tabId) => whenReady(ready2, log, "tabs.onRemoved", async () => {
      await revoke(ctx2, tabId, RevokeClosed, "event");
    })
  );
  api2.tabs.onUpdated((tabId, change) => {
    const groupId = change.groupId;
    if (groupId === void 0) return;
    whenReady(ready2, log, "tabs.onUpdated", async () => {
      const owner = ownership2.owner(tabId);
      if (owner === void 0 || owner.tab.groupId === groupId) return;
      const lost = lossReason(await api2.tabs.get(tabId), owner.tab.groupId);
      if (lost !== void 0) await revoke(ctx2, tabId, lost, "event");
    });
  });
  api2.tabs.onAttached(
    (tabId, windowId) => whenReady(ready2, log, "tabs.onAttached", async () => {
      const owner = ownership2.owner(tabId);
      if (owner === void 0) return;
      const tab = await api2.tabs.get(tabId);
      const lost = lossReason(tab, owner.tab.groupId);
      if (lost !== void 0) {
        await revoke(ctx2, tabId, lost, "event");
        return;
      }
      ownership2.moveWindow(tabId, windowId);
      await ownership2.persist();
    })
  );
}

// src/background/watch-revisions.ts
function watchRevisions(ctx2, ready2) {
  const { chrome: api2, ownership: ownership2, log } = ctx2;
  const bump = (tabId) => whenReady(ready2, log, "revision", async () => {
    const revision = ownership2.bump(tabId);
    if (revision === void 0) return;
    await ownership2.persist();
    const notice = { tab_id: tabId, revision };
    ctx2.notify(EventRevision, notice);
  });
  const topFrame = (d) => {
    if (d.frameId === 0) bump(d.tabId);
  };
  api2.webNavigation.onCommitted(topFrame);
  api2.webNavigation.onHistoryStateUpdated(topFrame);
  api2.webNavigation.onReferenceFragmentUpdated(topFrame);
  const own = `chrome-extension://${api2.runtime.id}/`;
  api2.tabs.onUpdated((tabId, change) => {
    const url = change.url;
    if (url !== void 0 && url.startsWith("chrome-extension://") && !url.startsWith(own)) bump(tabId);
  });
}

// src/background/main.ts
var api = realChrome();
var ownership = new Ownership(api.storageSession, consoleLog);
var ready = ownership.load();
var ctx = {
  chrome: api,
  ownership,
  notify: (event, params) => connection.notify(event, params),
  clock: realClock,
  log: consoleLog
};
var connection = new HostConnection(api, dispatcher(ctx, ready), realClock, consoleLog);
watchOwnership(ctx, ready);
watchRevisions(ctx, ready);
servePopup(api, ownership, ready, () => connection.state);
connection.connect();
