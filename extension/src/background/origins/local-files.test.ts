import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExtActParams } from "../../protocol/generated";
import { act } from "../act/act";
import type { LocalFileCheck } from "./local-files";
import { open } from "../methods/open";
import type { FakeFrame } from "../../testing/page-kit";
import { servePage } from "../../testing/page-kit";
import { snapshot } from "../pagework/snapshot";
import { failure, kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";

// Issue 9, local folders admitted (policy.json local_files.allowed_roots):
// the host decides every file: URL; here a fake host admits what lies in
// file:///root/ except its "secret" files.
const PAGE = "file:///root/report.html";
const NO_POLICY = { allowed: [], denied: [] };

const page: FakeFrame = {
  id: "TOP",
  loaderId: "L1",
  url: PAGE,
  agent: { snapshot: () => ({ text: '- heading "Coverage"', truncated: false, nextId: 1, frames: [], title: "Coverage", url: PAGE }) },
};

/** A kit whose host admits file:///root/ but its secrets, and which records each question. */
async function local(): Promise<{ k: Kit; asked: string[] }> {
  const asked: string[] = [];
  const host: LocalFileCheck = (url) => {
    asked.push(url);
    const admitted = url.startsWith("file:///root/") && !url.includes("secret");
    return Promise.resolve(admitted ? undefined : { code: "local_file_denied", reason: "the local file is not inside a folder the user's policy admits" });
  };
  const k = kit(undefined, host);
  k.fake.addWindow({ focused: true });
  servePage(k.fake, page);
  await k.ctx.origins.set(NO_POLICY, true);
  return { k, asked };
}

function pause(k: Kit, tabId: number, url: string, frameId = "TOP", resourceType = "Document"): void {
  k.fake.debuggerEvent({ tabId }, "Fetch.requestPaused", { requestId: `req ${url}`, request: { url }, frameId, resourceType });
}

function sent(k: Kit, method: string): object[] {
  return k.fake.commands.filter((c) => c.method === method).map((c) => ({ ...c.target, ...c.params }));
}

/** Opens PAGE as browser_open does: its document request pauses once the guard intercepts, and commits when let go. */
async function openPage(k: Kit): Promise<number> {
  let tabId = 0;
  k.fake.tabs.onCreated((t) => (tabId = t.id));
  const served = k.fake.cdp;
  k.fake.cdp = (c) => {
    if (c.method === "Fetch.continueRequest" && (c.params as { requestId?: string }).requestId === `req ${PAGE}`) k.fake.later(() => k.fake.navigate(tabId, PAGE, "commit"));
    return served(c);
  };
  k.fake.autoLoad = false;
  const opening = open(k.ctx, { task: LOOK, url: PAGE, placement: "tab", load_wait_ms: 200 });
  await k.fake.settle();
  pause(k, tabId, PAGE);
  await opening;
  await k.fake.settle();
  return tabId;
}

function snap(k: Kit, tabId: number) {
  return snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "full", capture_chars: 1000, screenshot: "none" });
}

function actParams(k: Kit, tabId: number, actions: ExtActParams["actions"]): ExtActParams {
  return { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: k.ctx.ownership.owner(tabId)?.tab.revision ?? 0, actions };
}

test("with local folders admitted, open guards a blank tab first, every file: request pauses, and the page the host admitted is read", async () => {
  const { k, asked } = await local();
  assert.equal(k.ctx.origins.holding, true);
  assert.equal(k.ctx.origins.constrained, false);
  const tabId = await openPage(k);
  assert.deepEqual(
    k.fake.calls.filter((c) => /^(tabs\.(create|navigate)|debugger\.attach)/.test(c)),
    ["tabs.create", `debugger.attach ${tabId}`, `tabs.navigate ${tabId} ${PAGE}`],
  );
  assert.deepEqual(sent(k, "Fetch.enable"), [{ tabId, sessionId: undefined, patterns: [{ urlPattern: "file:*", requestStage: "Request" }] }]);
  assert.ok(k.ctx.pages.debuggers.held(tabId), "held while folders are admitted");
  assert.deepEqual(asked, [PAGE]);
  const r = await snap(k, tabId);
  assert.match(r.text, /Coverage/);
});

test("the host decides each file: request: a refused navigation is stopped, a refused frame or subresource fails, the admitted go on", async () => {
  const { k, asked } = await local();
  const tabId = await openPage(k);
  const stops: string[] = [];
  k.ctx.origins.onStop(tabId, (s) => stops.push(s.url));
  pause(k, tabId, "file:///etc/passwd", "CHILD");
  pause(k, tabId, "file:///root/secret/http-token", "TOP", "Image");
  pause(k, tabId, "file:///root/style.css", "TOP", "Stylesheet");
  pause(k, tabId, "file:///root/frame.html", "CHILD");
  pause(k, tabId, "file:///etc/passwd");
  await k.fake.settle();
  assert.deepEqual(asked.slice(1), ["file:///etc/passwd", "file:///root/secret/http-token", "file:///root/style.css", "file:///root/frame.html", "file:///etc/passwd"]);
  assert.deepEqual(sent(k, "Fetch.failRequest"), [
    { tabId, sessionId: undefined, requestId: "req file:///etc/passwd", errorReason: "BlockedByClient" },
    { tabId, sessionId: undefined, requestId: "req file:///root/secret/http-token", errorReason: "BlockedByClient" },
  ]);
  assert.deepEqual(sent(k, "Fetch.fulfillRequest"), [{ tabId, sessionId: undefined, requestId: "req file:///etc/passwd", responseCode: 204 }]);
  assert.deepEqual(
    sent(k, "Fetch.continueRequest").map((c) => (c as { requestId: string }).requestId),
    [`req ${PAGE}`, "req file:///root/style.css", "req file:///root/frame.html"],
  );
  assert.deepEqual(stops, ["file:///etc/passwd"], "only the tab's own navigation is a stop");
});

test("a local page gets page work only while the attachment that checked its document stays on the tab", async () => {
  const { k } = await local();
  const tabId = await openPage(k);
  await snap(k, tabId);
  // Another commit of a local page whose request nobody checked (a
  // history restore, a navigation before the attach): no reads.
  k.fake.navigate(tabId, "file:///root/other.html", "commit");
  await k.fake.settle();
  const commands = k.fake.commands.length;
  const f = await failure(snap(k, tabId));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["local_file_denied", "not_started"]);
  assert.match(f.detail.message, /could not check/);
  const r = await act(k.ctx, actParams(k, tabId, [{ kind: "click", ref: "e1" }]));
  assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["local_file_denied", "not_started"]);
  assert.equal(k.fake.commands.length, commands, "nothing was sent to the page");

  // Checked again on the same attachment (the page commits when its
  // request goes on, openPage): read again, at any of its fragments. A
  // new attachment (Chrome took the first away meanwhile) is not the one
  // that checked.
  pause(k, tabId, PAGE);
  await k.fake.settle();
  k.fake.navigate(tabId, `${PAGE}#totals`, "fragment");
  await k.fake.settle();
  await snap(k, tabId);
  k.fake.debuggerDetach(tabId, "canceled_by_user");
  await k.fake.settle();
  const again = await failure(snap(k, tabId));
  assert.equal(again.detail.code, "local_file_denied");
});

test("a navigate step to a local file asks the host: refused, nothing moves", async () => {
  const { k, asked } = await local();
  const tabId = await openPage(k);
  const calls = k.fake.calls.length;
  const r = await act(k.ctx, actParams(k, tabId, [{ kind: "navigate", url: "file:///root/secret.html" }]));
  assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["local_file_denied", "not_started"]);
  assert.equal(asked.at(-1), "file:///root/secret.html");
  assert.deepEqual(k.fake.calls.slice(calls).filter((c) => c.startsWith("tabs.navigate")), []);
  k.fake.autoLoad = true;
  const ok = await act(k.ctx, actParams(k, tabId, [{ kind: "navigate", url: "file:///root/next.html" }]));
  assert.equal(ok.steps[0]?.error, undefined);
  assert.ok(k.fake.calls.includes(`tabs.navigate ${tabId} file:///root/next.html`));
});

test("without folders admitted, a navigate step to a local file is refused at its step, and the host is never asked", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  servePage(k.fake, { ...page, url: "https://a.test/" });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  const calls = k.fake.calls.length;
  const r = await act(k.ctx, actParams(k, tab.tab_id, [{ kind: "navigate", url: "file:///root/report.html" }]));
  assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome, r.steps[0]?.error?.message], ["local_file_denied", "not_started", "it is a local file (file:), and the user's policy admits no local folder"]);
  assert.deepEqual(k.fake.calls.slice(calls).filter((c) => c.startsWith("tabs.navigate")), []);
});

test("without the debugger, a local page the host admits stays but gets no page work, and one it refuses is taken back", async () => {
  const { k, asked } = await local();
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  const tabId = tab.tab_id;
  await k.ctx.pages.release(tabId);
  k.fake.failNext.set("debugger.attach", "Cannot access a chrome-extension:// URL of different extension");
  k.fake.navigate(tabId, "file:///root/report.html", "commit");
  await k.fake.settle();
  assert.ok(asked.includes("file:///root/report.html"));
  assert.equal((await k.fake.tabs.get(tabId))?.url, "file:///root/report.html");
  const f = await failure(snap(k, tabId));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["local_file_denied", "not_started"]);

  k.fake.navigate(tabId, "file:///etc/passwd", "commit");
  await k.fake.settle();
  assert.equal((await k.fake.tabs.get(tabId))?.url, "https://a.test/", "the refused file was replaced by the last admitted page");
});

test("with origin lists and local folders both, a tab's session pauses every document and every local file; a popup toward a local file is not opened", async () => {
  const { k } = await local();
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.ctx.origins.set({ allowed: [], denied: [{ scheme: "https", host: "evil.test", subdomains: false, port: 0 }] }, true);
  assert.deepEqual(sent(k, "Fetch.enable").at(-1), {
    tabId: tab.tab_id,
    sessionId: undefined,
    patterns: [
      { urlPattern: "*", resourceType: "Document", requestStage: "Request" },
      { urlPattern: "file:*", requestStage: "Request" },
    ],
  });
  const refused = k.ctx.origins.refused("file:///root/report.html");
  assert.deepEqual([refused?.detail.code, refused?.detail.outcome], ["local_file_denied", "not_started"]);
  // Lifted entirely: interception ends, and no local page counts as checked.
  await k.ctx.origins.set(NO_POLICY, false);
  assert.equal(k.ctx.origins.holding, false);
  assert.equal(sent(k, "Fetch.disable").length, 1);
});
