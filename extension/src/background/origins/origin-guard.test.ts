import { test } from "node:test";
import assert from "node:assert/strict";
import type { CommandHandler } from "../../testing/fake-chrome";
import type { ExtActParams, OriginPolicy } from "../../protocol/generated";
import { act } from "../act/act";
import { open } from "../methods/open";
import type { FakeFrame } from "../../testing/page-kit";
import { at, servePage } from "../../testing/page-kit";
import { openChild, watchChildren } from "../tabs/children";
import { reconcile } from "../methods/reconcile";
import { snapshot } from "../pagework/snapshot";
import { failure, kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";

const POLICY: OriginPolicy = { allowed: [], denied: [{ scheme: "https", host: "evil.test", subdomains: true, port: 0 }] };
const DENIED = "https://evil.test/landing";

const page: FakeFrame = {
  id: "TOP",
  loaderId: "L1",
  url: "https://a.test/",
  agent: {
    snapshot: () => ({ text: '- link "Away" [ref=e1]', truncated: false, nextId: 2, frames: [], title: "A", url: "https://a.test/" }),
    knows: (ref) => ref === "e1",
    target: () => at(10, 10, { description: 'link "Away"' }),
    hitTest: () => ({ ok: true }),
  },
};

/** A kit whose fake debugger serves page and, after it, answers with more. */
function guarded(more: CommandHandler = () => undefined): Kit {
  const k = kit();
  k.fake.addWindow({ focused: true });
  servePage(k.fake, page);
  const served = k.fake.cdp;
  k.fake.cdp = (c) => more(c) ?? served(c);
  return k;
}

async function ownedTab(k: Kit, url: string): Promise<number> {
  const { tab } = await open(k.ctx, { task: LOOK, url, placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  return tab.tab_id;
}

function sent(k: Kit, method: string): object[] {
  return k.fake.commands.filter((c) => c.method === method).map((c) => ({ ...c.target, ...c.params }));
}

function pause(k: Kit, tabId: number, url: string, opts: { frameId?: string; sessionId?: string } = {}): void {
  k.fake.debuggerEvent({ tabId, sessionId: opts.sessionId }, "Fetch.requestPaused", { requestId: `req ${url}`, request: { url }, frameId: opts.frameId ?? "TOP", resourceType: "Document" });
}

function actParams(k: Kit, tabId: number, actions: ExtActParams["actions"]): ExtActParams {
  return { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: k.ctx.ownership.owner(tabId)?.tab.revision ?? 0, actions };
}

test("a constraining policy holds each owned web tab with its documents intercepted, and leaves tab_only tabs alone", async () => {
  const k = guarded();
  const web = await ownedTab(k, "https://a.test/");
  const browser = await ownedTab(k, "chrome://settings/");
  await k.ctx.origins.set(POLICY);
  assert.deepEqual([...k.fake.attachedTabs], [web]);
  assert.deepEqual(sent(k, "Fetch.enable"), [{ tabId: web, sessionId: undefined, patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }] }]);
  assert.ok(k.ctx.pages.debuggers.held(web), "held: never detached for idleness");
  assert.ok(!k.ctx.pages.debuggers.held(browser));
  // Lifted: interception ends and the attachment may go idle again.
  await k.ctx.origins.set({ allowed: [], denied: [] });
  assert.equal(sent(k, "Fetch.disable").length, 1);
  assert.ok(!k.ctx.pages.debuggers.held(web));
});

test("the guard stops a refused top-frame navigation with an empty 204 and lets every other document through", async () => {
  const k = guarded();
  const tabId = await ownedTab(k, "https://a.test/");
  await k.ctx.origins.set(POLICY);
  const stops: string[] = [];
  k.ctx.origins.onStop(tabId, (s) => stops.push(`${s.url}: ${s.reason}`));
  pause(k, tabId, DENIED);
  pause(k, tabId, "https://a.test/next");
  pause(k, tabId, "https://evil.test/frame", { frameId: "CHILD" });
  pause(k, tabId, "https://evil.test/oopif", { frameId: "OOPIF", sessionId: "S1" });
  await k.fake.settle();
  assert.deepEqual(sent(k, "Fetch.fulfillRequest"), [{ tabId, sessionId: undefined, requestId: `req ${DENIED}`, responseCode: 204 }]);
  assert.deepEqual(sent(k, "Fetch.continueRequest"), [
    { tabId, sessionId: undefined, requestId: "req https://a.test/next" },
    { tabId, sessionId: undefined, requestId: "req https://evil.test/frame" },
    { tabId, sessionId: "S1", requestId: "req https://evil.test/oopif" },
  ]);
  assert.deepEqual(stops, [`${DENIED}: https://evil.test is denied by the origins.denied entry https://*.evil.test`]);
});

test("when the top frame's id cannot be read, only a document request of the tab's own session is stopped as a navigation; a refused subresource or child frame's document fails", async () => {
  // The tab is guarded; then the local roots come, and reading the frame
  // tree for them fails: the top frame's id is unknown on that attachment.
  let broken = false;
  const k = guarded((c) => {
    if (broken && c.method === "Page.getFrameTree") throw new Error("Internal error");
    return undefined;
  });
  const tabId = await ownedTab(k, "https://a.test/");
  await k.ctx.origins.set(POLICY);
  broken = true;
  await k.ctx.origins.set(POLICY, true);
  assert.ok(k.fake.attachedTabs.has(tabId));
  const stops: string[] = [];
  k.ctx.origins.onStop(tabId, (s) => stops.push(s.url));
  const css = "file:///etc/style.css";
  const framed = "file:///etc/passwd";
  k.fake.debuggerEvent({ tabId }, "Fetch.requestPaused", { requestId: "css", request: { url: css }, frameId: "TOP", resourceType: "Stylesheet" });
  k.fake.debuggerEvent({ tabId, sessionId: "S1" }, "Fetch.requestPaused", { requestId: "oopif", request: { url: framed }, frameId: "OOPIF", resourceType: "Document" });
  k.fake.debuggerEvent({ tabId }, "Fetch.requestPaused", { requestId: "ok", request: { url: "https://a.test/next" }, frameId: "TOP", resourceType: "Document" });
  pause(k, tabId, DENIED);
  await k.fake.settle();
  assert.deepEqual(sent(k, "Fetch.failRequest"), [
    { tabId, sessionId: undefined, requestId: "css", errorReason: "BlockedByClient" },
    { tabId, sessionId: "S1", requestId: "oopif", errorReason: "BlockedByClient" },
  ]);
  assert.deepEqual(sent(k, "Fetch.fulfillRequest"), [{ tabId, sessionId: undefined, requestId: `req ${DENIED}`, responseCode: 204 }]);
  assert.deepEqual(sent(k, "Fetch.continueRequest"), [{ tabId, sessionId: undefined, requestId: "ok" }]);
  assert.deepEqual(stops, [DENIED], "only the tab's navigation is reported as a stop");
});

test("a click whose navigation the guard stops is refused on its receipt, and the page keeps its revision", async () => {
  let tabId = 0;
  const k = guarded((c) => {
    if (c.method === "Input.dispatchMouseEvent" && (c.params as { type?: string }).type === "mouseReleased") {
      k.fake.debuggerEvent({ tabId }, "Page.frameRequestedNavigation", { frameId: "TOP", url: DENIED, disposition: "currentTab" });
      pause(k, tabId, DENIED);
    }
    // Observed in Chromium 156: the 204 ends the navigation as aborted.
    if (c.method === "Fetch.fulfillRequest") k.fake.failNavigation(tabId, DENIED, "net::ERR_ABORTED");
    return undefined;
  });
  tabId = await ownedTab(k, "https://a.test/");
  await k.ctx.origins.set(POLICY);
  await snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const before = k.ctx.ownership.owner(tabId)?.tab.revision;
  const r = await act(k.ctx, actParams(k, tabId, [{ kind: "click", ref: "e1" }, { kind: "reload" }]));
  const [click, next] = r.steps;
  assert.deepEqual([click?.outcome, click?.navigation, click?.error?.code, click?.error?.outcome], ["dispatched", "refused", "origin_policy_denied", "dispatched"]);
  assert.match(click?.error?.message ?? "", /navigation to https:\/\/evil\.test\/landing was stopped: .*the tab stays on its page/);
  assert.equal(next?.outcome, "not_started", "the batch stops at the stopped navigation");
  assert.equal(r.revision, before);
});

test("while a policy constrains, back and forward are unverifiable on tab_only pages and checked on full ones", async () => {
  const history = { currentIndex: 1, entries: [{ id: 7, url: DENIED }, { id: 8, url: "https://a.test/" }, { id: 9, url: "https://a.test/next" }] };
  const k = guarded((c) => (c.method === "Page.getNavigationHistory" ? history : undefined));
  const tabId = await ownedTab(k, "https://a.test/");
  const browser = await ownedTab(k, "chrome://settings/");
  await k.ctx.origins.set(POLICY);

  const tabOnly = await act(k.ctx, actParams(k, browser, [{ kind: "back" }]));
  assert.deepEqual([tabOnly.steps[0]?.error?.code, tabOnly.steps[0]?.outcome], ["origin_policy_unverifiable", "not_started"]);
  const back = await act(k.ctx, actParams(k, tabId, [{ kind: "back" }]));
  assert.deepEqual([back.steps[0]?.error?.code, back.steps[0]?.outcome], ["origin_policy_denied", "not_started"]);
  assert.deepEqual(sent(k, "Page.navigateToHistoryEntry"), []);
  assert.deepEqual(k.fake.calls.filter((c) => c.startsWith("tabs.go")), []);

  k.fake.autoLoad = false;
  const forward = act(k.ctx, actParams(k, tabId, [{ kind: "forward" }]));
  await k.fake.settle();
  k.fake.navigate(tabId, "https://a.test/next", "commit");
  const done = await forward;
  assert.deepEqual(sent(k, "Page.navigateToHistoryEntry"), [{ tabId, sessionId: undefined, entryId: 9 }]);
  assert.deepEqual([done.steps[0]?.outcome, done.steps[0]?.navigation], ["confirmed", "committed"]);
});

test("reloading a refused web page is refused; reloading a browser page is a recovery operation", async () => {
  const k = guarded();
  const tabId = await ownedTab(k, DENIED);
  const browser = await ownedTab(k, "chrome://settings/");
  await k.ctx.origins.set({ allowed: [{ scheme: "https", host: "a.test", subdomains: false, port: 0 }], denied: [] });
  const web = await act(k.ctx, actParams(k, tabId, [{ kind: "reload" }]));
  assert.deepEqual([web.steps[0]?.error?.code, web.steps[0]?.outcome], ["origin_policy_denied", "not_started"]);
  const recovery = await act(k.ctx, actParams(k, browser, [{ kind: "reload" }]));
  assert.equal(recovery.steps[0]?.error, undefined);
  assert.deepEqual(k.fake.calls.filter((c) => c.startsWith("tabs.reload")), [`tabs.reload ${browser}`]);
  const nav = await act(k.ctx, actParams(k, browser, [{ kind: "navigate", url: "https://evil.test/" }]));
  assert.deepEqual([nav.steps[0]?.error?.code, nav.steps[0]?.outcome], ["origin_policy_denied", "not_started"]);
});

test("popups toward a refused origin are not opened, and those Chrome opens are not taken in", async () => {
  const k = guarded();
  watchChildren(k.ctx, Promise.resolve());
  const opener = await ownedTab(k, "https://a.test/");
  await k.ctx.origins.set(POLICY);
  const tabsBefore = k.fake.tabMap.size;
  const trapped = await openChild(k.ctx, opener, DENIED);
  assert.deepEqual([trapped?.owned, trapped?.tab_id, trapped?.error?.code, trapped?.error?.outcome], [false, -1, "origin_policy_denied", "not_started"]);
  assert.equal(k.fake.tabMap.size, tabsBefore, "nothing was opened");

  const watch = k.ctx.children.watch(opener);
  const child = k.fake.pageOpens(opener, DENIED);
  await k.fake.settle();
  const [report] = await watch.stop(k.ctx.clock);
  assert.deepEqual([report?.tab_id, report?.owned, report?.error?.code], [child, false, "origin_policy_denied"]);
  assert.match(report?.error?.message ?? "", /stays open and belongs to the user/);
  assert.equal(k.ctx.ownership.owner(child), undefined);
  assert.ok(k.fake.tabMap.has(child), "a tab Chrome opened is never closed");

  const allowed = await openChild(k.ctx, opener, "https://a.test/popup");
  assert.equal(allowed?.owned, true);
  await k.fake.settle();
  assert.ok(allowed !== undefined && k.ctx.pages.debuggers.held(allowed.tab_id), "a popup taken in is guarded");
});

test("under a policy, open guards a blank tab before it loads the page, and a stopped load closes it again", async () => {
  let tabId = 0;
  const k = guarded((c) => {
    // The page redirects to the refused origin; the guard sees each hop.
    if (c.method === "Fetch.enable") k.fake.later(() => pause(k, tabId, DENIED));
    return undefined;
  });
  await k.ctx.origins.set(POLICY);
  k.fake.autoLoad = false;
  k.fake.tabs.onCreated((t) => (tabId = t.id));
  const f = await failure(open(k.ctx, { task: LOOK, url: "https://a.test/redirects", placement: "tab", load_wait_ms: 1000 }));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["origin_policy_denied", "dispatched"]);
  assert.deepEqual(
    k.fake.calls.filter((c) => /^(tabs\.(create|navigate|remove)|debugger\.attach)/.test(c)),
    ["tabs.create", `debugger.attach ${tabId}`, `tabs.navigate ${tabId} https://a.test/redirects`, `tabs.remove ${tabId}`],
  );
  assert.equal(k.ctx.ownership.owner(tabId), undefined);
  assert.equal(k.fake.tabMap.has(tabId), false);
});

test("an open whose first load the guard stops toward a local file fails local_file_denied, not origin_policy_denied", async () => {
  let tabId = 0;
  const k = guarded((c) => {
    // The page redirects to a local file (the guard pauses file: requests under local roots).
    if (c.method === "Fetch.enable") k.fake.later(() => pause(k, tabId, "file:///etc/passwd"));
    return undefined;
  });
  await k.ctx.origins.set(POLICY, true);
  k.fake.autoLoad = false;
  k.fake.tabs.onCreated((t) => (tabId = t.id));
  const f = await failure(open(k.ctx, { task: LOOK, url: "https://a.test/redirects", placement: "tab", load_wait_ms: 1000 }));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["local_file_denied", "dispatched"]);
  assert.match(f.detail.recovery, /local_files\.allowed_roots/);
  assert.equal(k.fake.tabMap.has(tabId), false, "the tab opened for it was closed again");
});

test("reconciliation lets go of guarded tabs it revokes", async () => {
  const k = guarded();
  const tabId = await ownedTab(k, "https://a.test/");
  await k.ctx.origins.set(POLICY);
  assert.ok(k.fake.attachedTabs.has(tabId));
  // The host's record names another group: inconsistent, so revoked.
  const groupId = k.ctx.ownership.owner(tabId)?.tab.groupId ?? 0;
  await reconcile(k.ctx, { tasks: [{ task: LOOK, tabs: [{ tab_id: tabId, group_id: groupId + 1000, revision_floor: 1 }] }] });
  assert.equal(k.ctx.ownership.owner(tabId), undefined);
  assert.equal(k.fake.attachedTabs.has(tabId), false);
});

test("an intercepting attachment this worker does not know (an earlier worker's) is detached, so the tab's navigations go on", async () => {
  const k = guarded();
  const tabId = await ownedTab(k, "https://a.test/");
  k.fake.attachedTabs.add(tabId);
  pause(k, tabId, DENIED);
  await k.fake.settle();
  assert.deepEqual(k.fake.calls.filter((c) => c.startsWith("debugger.")), [`debugger.detach ${tabId}`]);
  assert.equal(k.fake.attachedTabs.has(tabId), false);
});

test("where Chrome refuses the debugger, a refused page-started navigation is stopped through scripting, and taken back to the admitted page when it commits first", async () => {
  const k = guarded();
  await k.ctx.origins.set(POLICY);
  await k.fake.permissions.request("scripting");
  const tabId = await ownedTab(k, "https://a.test/");
  // Chrome takes the debugger away and refuses it from now on (the next attach, on the commit, fails).
  await k.ctx.pages.release(tabId);
  k.fake.failNext.set("debugger.attach", "Cannot access a chrome-extension:// URL of different extension");
  assert.equal(k.ctx.pages.session(tabId), undefined, "the tab is not guarded by the debugger");
  const stops: { url: string; late?: boolean }[] = [];
  k.ctx.origins.onStop(tabId, (s) => stops.push(s));

  k.fake.pageNavigates(tabId, DENIED);
  await k.fake.settle();
  assert.deepEqual(k.fake.stoppedLoading, [tabId], "window.stop() was asked for before the commit");
  assert.deepEqual(
    stops.map((s) => [s.url, s.late === true]),
    [
      [DENIED, false],
      [DENIED, true],
    ],
  );
  assert.ok(k.fake.calls.includes(`tabs.navigate ${tabId} https://a.test/`), "the committed refused page was replaced by the admitted one");
  assert.equal((await k.fake.tabs.get(tabId))?.url, "https://a.test/");

  // Admitted navigations go on untouched.
  k.fake.pageNavigates(tabId, "https://b.test/");
  await k.fake.settle();
  assert.equal(stops.length, 2);
  assert.equal((await k.fake.tabs.get(tabId))?.url, "https://b.test/");
});

test("a refused page that commits on a guarded tab (a back-forward cache restore makes no request) is taken back, and reported with the tab's next result", async () => {
  const k = guarded();
  await k.ctx.origins.set(POLICY);
  const tabId = await ownedTab(k, "https://a.test/");
  assert.ok(k.ctx.pages.session(tabId), "the tab is guarded by the debugger");
  k.fake.navigate(tabId, DENIED, "commit");
  await k.fake.settle();
  assert.ok(k.fake.calls.includes(`tabs.navigate ${tabId} https://a.test/`), "the admitted page was loaded again");
  assert.deepEqual(k.ctx.origins.takeUnreported(tabId, "another task"), [], "another task never hears of this tab's stops");
  k.fake.navigate(tabId, DENIED, "commit");
  await k.fake.settle();
  const stops = k.ctx.origins.takeUnreported(tabId, LOOK.task_id);
  assert.deepEqual(
    stops.map((s) => [s.url, s.late]),
    [[DENIED, true]],
  );
  assert.deepEqual(k.ctx.origins.takeUnreported(tabId, LOOK.task_id), [], "each stop is reported once");
});

test("a late stop whose way back leads to a refused page again ends on about:blank, not in a loop", async () => {
  const k = guarded();
  await k.ctx.origins.set(POLICY);
  const tabId = await ownedTab(k, "https://a.test/");
  // The refused page commits; before the admitted page comes back, another
  // refused commit (the admitted page now redirects to the refused origin).
  k.fake.navigate(tabId, DENIED, "commit");
  k.fake.navigate(tabId, DENIED, "commit");
  await k.fake.settle();
  const navigations = k.fake.calls.filter((c) => c.startsWith(`tabs.navigate ${tabId}`));
  assert.deepEqual(navigations.slice(-2), [`tabs.navigate ${tabId} https://a.test/`, `tabs.navigate ${tabId} about:blank`]);
});

// Issue 9: local files, with or without origin lists.
const LOCAL = "file:///etc/passwd";

test("without origin lists, an owned tab's navigation to a local file is sent back to the admitted page, and reported with the tab's next result", async () => {
  const k = guarded();
  const tabId = await ownedTab(k, "https://a.test/");
  assert.equal(k.ctx.origins.constrained, false);
  k.fake.pageNavigates(tabId, LOCAL);
  await k.fake.settle();
  assert.deepEqual(k.fake.stoppedLoading, [], "scripting is not granted");
  assert.ok(k.fake.calls.includes(`tabs.navigate ${tabId} https://a.test/`), "the admitted page replaced the pending navigation");
  assert.equal((await k.fake.tabs.get(tabId))?.url, "https://a.test/");
  const stops = k.ctx.origins.takeUnreported(tabId, LOOK.task_id);
  assert.ok(stops.length > 0 && stops.every((s) => s.url === LOCAL), JSON.stringify(stops));

  // A file that commits first (a history restore makes no request) is taken back too.
  k.fake.navigate(tabId, "view-source:file:///etc/passwd", "commit");
  await k.fake.settle();
  assert.equal((await k.fake.tabs.get(tabId))?.url, "https://a.test/");
  assert.deepEqual(
    k.ctx.origins.takeUnreported(tabId, LOOK.task_id).map((s) => [s.url, s.late]),
    [["view-source:file:///etc/passwd", true]],
  );
});

test("a tab that shows a local file gets no page work, however it got there", async () => {
  const k = guarded();
  const tabId = await ownedTab(k, "https://a.test/");
  k.fake.navigate(tabId, LOCAL, "commit");
  const commands = k.fake.commands.length;
  const f = await failure(snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "full", capture_chars: 1000, screenshot: "none" }));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["local_file_denied", "not_started"]);
  const r = await act(k.ctx, actParams(k, tabId, [{ kind: "click", ref: "e1" }]));
  assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["local_file_denied", "not_started"]);
  assert.equal(k.fake.commands.length, commands, "nothing was sent to the page");
});

test("a back step toward a local file is refused: checked first under origin lists, stopped by the guard without them", async () => {
  const history = { currentIndex: 1, entries: [{ id: 7, url: LOCAL }, { id: 8, url: "https://a.test/" }] };
  const k = guarded((c) => (c.method === "Page.getNavigationHistory" ? history : undefined));
  const tabId = await ownedTab(k, LOCAL);
  k.fake.navigate(tabId, "https://a.test/", "commit");
  await k.fake.settle();

  const unconstrained = await act(k.ctx, actParams(k, tabId, [{ kind: "back" }]));
  assert.deepEqual([unconstrained.steps[0]?.navigation, unconstrained.steps[0]?.error?.code], ["refused", "local_file_denied"]);
  assert.equal((await k.fake.tabs.get(tabId))?.url, "https://a.test/");

  await k.ctx.origins.set(POLICY);
  const calls = k.fake.calls.length;
  const constrained = await act(k.ctx, actParams(k, tabId, [{ kind: "back" }]));
  assert.deepEqual([constrained.steps[0]?.error?.code, constrained.steps[0]?.outcome], ["local_file_denied", "not_started"]);
  assert.deepEqual(sent(k, "Page.navigateToHistoryEntry"), []);
  assert.deepEqual(k.fake.calls.slice(calls).filter((c) => c.startsWith("tabs.")), []);
});

test("under origin lists a local file's document request is answered with a 204 before it commits", async () => {
  const k = guarded();
  const tabId = await ownedTab(k, "https://a.test/");
  await k.ctx.origins.set(POLICY);
  const stops: string[] = [];
  k.ctx.origins.onStop(tabId, (s) => stops.push(s.url));
  pause(k, tabId, LOCAL);
  await k.fake.settle();
  assert.deepEqual(sent(k, "Fetch.fulfillRequest"), [{ tabId, sessionId: undefined, requestId: `req ${LOCAL}`, responseCode: 204 }]);
  assert.deepEqual(stops, [LOCAL]);
});

test("a child tab Chrome opens toward a local file is not taken in", async () => {
  const k = guarded();
  watchChildren(k.ctx, Promise.resolve());
  const opener = await ownedTab(k, "https://a.test/");
  const watch = k.ctx.children.watch(opener);
  const child = k.fake.pageOpens(opener, LOCAL);
  await k.fake.settle();
  const [report] = await watch.stop(k.ctx.clock);
  assert.deepEqual([report?.tab_id, report?.owned, report?.error?.code], [child, false, "local_file_denied"]);
  assert.equal(k.ctx.ownership.owner(child), undefined);
});

test("a tab whose page committed before it was recorded as owned is sent back to that page", async () => {
  const k = guarded();
  const win = [...k.fake.windowMap.keys()][0] ?? 0;
  const tab = await k.fake.tabs.create({ url: "https://a.test/", windowId: win, active: false });
  await k.fake.settle();
  k.ctx.ownership.add(LOOK, tab.id, 1, win);
  k.fake.pageNavigates(tab.id, LOCAL);
  await k.fake.settle();
  assert.ok(k.fake.calls.includes(`tabs.navigate ${tab.id} https://a.test/`), JSON.stringify(k.fake.calls));
  assert.equal((await k.fake.tabs.get(tab.id))?.url, "https://a.test/");
});
