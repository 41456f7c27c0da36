import { test } from "node:test";
import assert from "node:assert/strict";
import { DeveloperMarker, DeveloperRefusedDomains, DeveloperRefusedMethods } from "../../protocol/generated";
import { open } from "../methods/open";
import { failure, kit, LOOK, OTHER } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { joinTaskGroup } from "../tabs/task-group";
import { developer } from "./developer";

async function ownedTab(k: Kit, url: string, look = LOOK): Promise<number> {
  const { tab } = await open(k.ctx, { task: look, url, placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  return tab.tab_id;
}

function title(k: Kit, tabId: number): string | undefined {
  const groupId = k.ctx.ownership.owner(tabId)?.tab.groupId;
  return groupId === undefined ? undefined : k.fake.groupMap.get(groupId)?.title;
}

test("evaluate runs Runtime.evaluate in the main world by value, marks the task's look and group, and later groups carry the marker", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k, "https://a.test/");
  k.fake.cdp = (c) => (c.method === "Runtime.evaluate" ? { result: { type: "string", value: "A title" } } : {});
  const r = await developer(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "evaluate", expression: "document.title" });
  assert.deepEqual(r.result, { value: "A title" });
  const sent = k.fake.commands.find((c) => c.method === "Runtime.evaluate");
  assert.deepEqual(sent?.params, { expression: "document.title", returnByValue: true, awaitPromise: true });
  assert.equal(k.ctx.ownership.task(LOOK.task_id)?.look.developer, true);
  assert.equal(title(k, tabId), LOOK.label + DeveloperMarker);
  // The host's look without the mark does not take it off; a second window's group gets it at creation.
  k.ctx.ownership.ensureTask(LOOK);
  assert.equal(k.ctx.ownership.task(LOOK.task_id)?.look.developer, true);
  const other = k.fake.addWindow({ focused: false });
  const loose = k.fake.addTab(other, "https://a.test/3");
  const look = k.ctx.ownership.task(LOOK.task_id)?.look ?? LOOK;
  const groupId = await joinTaskGroup(k.ctx, look, loose, other);
  assert.equal(k.fake.groupMap.get(groupId)?.title, LOOK.label + DeveloperMarker);
});

test("an exception is answered as its text; a cdp command answers Chrome's result; Chrome's error is chrome_error", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k, "https://a.test/");
  k.fake.cdp = (c) => {
    if (c.method === "Runtime.evaluate") return { result: { type: "object" }, exceptionDetails: { text: "Uncaught", exception: { description: "Error: boom" } } };
    if (c.method === "DOM.getDocument") return { root: { nodeId: 1 } };
    if (c.method === "Nope.nope") throw new Error("'Nope.nope' wasn't found");
    return {};
  };
  assert.deepEqual((await developer(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "evaluate", expression: "boom()" })).result, { exception: "Error: boom" });
  assert.deepEqual((await developer(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "cdp", method: "DOM.getDocument", params: { depth: 1 } })).result, { root: { nodeId: 1 } });
  const f = await failure(developer(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "cdp", method: "Nope.nope" }));
  assert.deepEqual({ code: f.detail.code, outcome: f.detail.outcome }, { code: "chrome_error", outcome: "unknown" });
});

test("another task's tab is not_owned and a tab_only page is browser_restricted_origin, before the debugger and without a mark", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const theirs = await ownedTab(k, "https://a.test/", OTHER);
  const settings = await ownedTab(k, "chrome://settings/");
  const before = k.fake.commands.length;
  const a = await failure(developer(k.ctx, { task_id: LOOK.task_id, tab_id: theirs, action: "evaluate", expression: "1" }));
  assert.deepEqual({ code: a.detail.code, outcome: a.detail.outcome }, { code: "not_owned", outcome: "not_started" });
  const b = await failure(developer(k.ctx, { task_id: LOOK.task_id, tab_id: settings, action: "cdp", method: "DOM.getDocument" }));
  assert.deepEqual({ code: b.detail.code, outcome: b.detail.outcome }, { code: "browser_restricted_origin", outcome: "not_started" });
  assert.equal(k.fake.commands.length, before, "no debugger command");
  assert.equal(k.ctx.ownership.task(LOOK.task_id)?.look.developer, undefined);
  assert.equal(title(k, settings), LOOK.label);
});

test("a result over the bound is message_too_large, dispatched", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k, "https://a.test/");
  k.fake.cdp = () => ({ result: { type: "string", value: "x".repeat(1 << 21) } });
  const f = await failure(developer(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "evaluate", expression: "big" }));
  assert.deepEqual({ code: f.detail.code, outcome: f.detail.outcome }, { code: "message_too_large", outcome: "dispatched" });
});

test("every refused domain and method is invalid_params before the debugger, and marks nothing", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k, "https://a.test/");
  const before = k.fake.commands.length;
  const methods = [...DeveloperRefusedMethods, ...DeveloperRefusedDomains.flatMap((d) => [`${d}.enable`, `${d}.disable`]), "Fetch.continueRequest", "Fetch.fulfillRequest"];
  for (const method of methods) {
    const f = await failure(developer(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "cdp", method }));
    assert.deepEqual({ method, code: f.detail.code, outcome: f.detail.outcome }, { method, code: "invalid_params", outcome: "not_started" });
  }
  assert.equal(k.fake.commands.length, before, "no debugger command");
  assert.equal(k.ctx.ownership.task(LOOK.task_id)?.look.developer, undefined);
  // A navigation stays the page's own (the origin guard sees it): sent.
  await developer(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "cdp", method: "Page.navigate", params: { url: "https://a.test/2" } });
  assert.ok(k.fake.commands.some((c) => c.method === "Page.navigate"));
});
