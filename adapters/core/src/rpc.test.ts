// The Core connection's capability barrier under parallel and cancelled
// calls (rpc.ts, core.ts), against the fake Core: what the go-sdk's
// parallel tool calls and a full disk do to agenttab mcp's twin.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import type { TestContext } from "node:test";

import { AgentTab } from "./agenttab";
import { FakeCore } from "./fakecore.testkit";
import type { Answer, Req } from "./fakecore.testkit";
import type { ToolResult } from "./types";

const open = { task: { id: "task_1", label: "t" }, tab: { tab: "tab_1", url: "https://e.com/", title: "t", automation_route: "full", page_revision: 1, loading: false }, placement: "tab", outcome: "confirmed" };
const tabs = { task: { id: "task_1", label: "t" }, tabs: [], outcome: "observed" };
const finish = { task: { id: "task_1", label: "t" }, released: 1, closed: 1, outcome: "confirmed" };
const refusal: Answer = { error: { code: "capability_unconfirmed", message: "confirm first", recovery: "r", outcome: "not_started" } };

function text(r: ToolResult): string {
  const c = r.content[0];
  return c !== undefined && c.type === "text" ? c.text : "";
}

/**
 * host is a fake Core that, like the host, refuses every call on a
 * connection whose task's newest capability is issued but not confirmed.
 * browser_open answers after openDelayMs with capability caps[n] (n-th
 * open); onOpen runs as it arrives (a parallel call sent meanwhile).
 */
function host(caps: string[], openDelayMs: number, onOpen: () => void = () => {}, tabsDelayMs = 0): (r: Req) => Answer {
  const unconfirmed = new Set<number>();
  let opens = 0;
  return (r: Req): Answer => {
    if (r.method === "browser_open") {
      onOpen();
    }
    if (r.method === "capability_confirm") {
      unconfirmed.delete(r.conn);
      return { result: { confirmed: true } };
    }
    if (unconfirmed.has(r.conn)) {
      return refusal;
    }
    switch (r.method) {
      case "browser_open":
        unconfirmed.add(r.conn);
        return { result: open, capability: caps[opens++] ?? "cap-spare", delayMs: openDelayMs };
      case "resume":
        return { result: { resumed: true } };
      case "browser_finish":
        return { result: finish };
      default:
        return { result: tabs, delayMs: tabsDelayMs };
    }
  };
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) {
    await new Promise((res) => setTimeout(res, 5));
  }
}

function at(t: TestContext, core: FakeCore): AgentTab {
  const a = AgentTab.open({ adapter: "t", adapterVersion: "0", stateDir: core.stateDir, session: "rpc-test" });
  t.after(async () => {
    await a.close();
    await core.stop();
  });
  return a;
}

// whileOpening: the browser_tabs call the next onOpen sends, while that
// browser_open's answer (and capability) is on its way.
class WhileOpening {
  call: Promise<ToolResult> | undefined;
  a: AgentTab | undefined;
  readonly onOpen = (): void => {
    if (this.a !== undefined && this.call === undefined) {
      this.call = this.a.call("browser_tabs", {});
    }
  };
  async parallel(): Promise<[ToolResult, ToolResult]> {
    const a = this.a;
    assert.ok(a !== undefined);
    this.call = undefined;
    const o = await a.call("browser_open", { url: "https://e.com/" });
    assert.ok(this.call !== undefined, "browser_tabs was not sent");
    return [o, await this.call];
  }
}

// unkeepable makes the capability file's path one a write cannot replace
// (a non-empty directory): the next keep fails, as on a full disk.
function unkeepable(a: AgentTab): void {
  const p = a.capabilityPath() ?? "";
  fs.rmSync(p);
  fs.mkdirSync(p);
  fs.writeFileSync(path.join(p, "x"), "");
}

test("a call refused while a parallel call makes the task waits for that task's capability, then is resent", { timeout: 10_000 }, async (t) => {
  const w = new WhileOpening();
  const core = await FakeCore.start(host(["cap-1", "cap-2"], 200, w.onOpen));
  const a = at(t, core);
  w.a = a;
  const [o, q] = await w.parallel();
  assert.equal(o.isError, false, text(o));
  assert.equal(q.isError, false, text(q));
  assert.deepEqual(core.methods(), ["hello", "browser_open", "browser_tabs", "capability_confirm", "browser_tabs"]);

  // After browser_finish the last confirmation is an old, finished one:
  // the next task's refusal waits all the same.
  assert.equal((await a.call("browser_finish", {})).isError, false);
  core.requests.length = 0;
  const [o2, q2] = await w.parallel();
  assert.equal(o2.isError, false, text(o2));
  assert.equal(q2.isError, false, text(q2));
  assert.deepEqual(core.methods(), ["browser_open", "browser_tabs", "capability_confirm", "browser_tabs"]);
  assert.equal(fs.readFileSync(a.capabilityPath() ?? "", "utf8"), "cap-2\n");
});

test("a capability that could not be kept retires the connection: the refused call resumes with the kept one on a new connection; the call that brought it is lost, never resent", { timeout: 10_000 }, async (t) => {
  const w = new WhileOpening();
  const core = await FakeCore.start(host(["cap-1", "cap-2"], 200, w.onOpen));
  const a = at(t, core);
  assert.equal((await a.call("browser_open", { url: "https://e.com/" })).isError, false);
  unkeepable(a);
  core.requests.length = 0;
  w.a = a;
  const [o, q] = await w.parallel();
  assert.equal(o.structuredContent?.["code"], "host_unavailable", text(o));
  assert.equal(o.structuredContent?.["outcome"], "unknown", "browser_open ran: its outcome is unknown");
  assert.equal(q.isError, false, text(q));
  assert.deepEqual(
    core.requests.map((r) => `${r.conn}:${r.method}`),
    ["1:browser_open", "1:browser_tabs", "2:hello", "2:resume", "2:browser_tabs"],
  );
  assert.deepEqual(core.requests.find((r) => r.method === "resume")?.params, { capability: "cap-1" });
});

test("a cancelled call's capability that could not be kept does not leave the connection refusing every later call", { timeout: 10_000 }, async (t) => {
  const core = await FakeCore.start(host(["cap-1", "cap-2"], 200));
  const a = at(t, core);
  assert.equal((await a.call("browser_open", { url: "https://e.com/" })).isError, false);
  unkeepable(a);
  const ac = new AbortController();
  const opening = a.call("browser_open", { url: "https://e.com/" }, ac.signal);
  setTimeout(() => ac.abort(), 50);
  assert.equal((await opening).structuredContent?.["code"], "extension_timeout");
  await new Promise((res) => setTimeout(res, 400)); // its answer arrived; keep failed
  core.requests.length = 0;
  const q = await a.call("browser_tabs", {});
  assert.equal(q.isError, false, text(q));
  assert.deepEqual(core.requests.map((r) => `${r.conn}:${r.method}`), ["2:hello", "2:resume", "2:browser_tabs"]);
});

test("a call that joined another's dial is not failed by that call's cancellation", { timeout: 20_000 }, async (t) => {
  const core = await FakeCore.start(() => ({ result: tabs }));
  const a = AgentTab.open({ adapter: "t", adapterVersion: "0", stateDir: core.stateDir, session: "rpc-test" });
  t.after(() => a.close());
  assert.equal((await a.call("browser_tabs", {})).isError, false);
  await core.stop();
  await new Promise((res) => setTimeout(res, 50));
  // Both wait for the host to come back; the first is cancelled meanwhile.
  const ac = new AbortController();
  const first = a.call("browser_tabs", {}, ac.signal);
  const second = a.call("browser_tabs", {});
  setTimeout(() => ac.abort(), 100);
  const back = new Promise<FakeCore>((res) => setTimeout(() => void FakeCore.startAt(core.stateDir, () => ({ result: tabs })).then(res), 500));
  t.after(async () => (await back).stop());
  assert.equal((await first).isError, true);
  const r = await second;
  assert.equal(r.isError, false, text(r));
});

test("a call refused while a cancelled call's answer is still due waits for the capability it carries", { timeout: 10_000 }, async (t) => {
  const core = await FakeCore.start(host(["cap-1"], 300));
  const a = at(t, core);
  const ac = new AbortController();
  const opening = a.call("browser_open", { url: "https://e.com/" }, ac.signal);
  await until(() => core.methods().includes("browser_open"));
  ac.abort();
  assert.equal((await opening).structuredContent?.["code"], "extension_timeout");
  const q = await a.call("browser_tabs", {});
  assert.equal(q.isError, false, text(q));
  assert.deepEqual(core.methods(), ["hello", "browser_open", "browser_tabs", "capability_confirm", "browser_tabs"]);
});

test("a call admitted before a capability failed to be kept still gets its answer: the retired connection ends once drained", { timeout: 10_000 }, async (t) => {
  const core = await FakeCore.start(host(["cap-1", "cap-2"], 100, () => {}, 400));
  const a = at(t, core);
  assert.equal((await a.call("browser_open", { url: "https://e.com/" })).isError, false);
  unkeepable(a);
  core.requests.length = 0;
  const slow = a.call("browser_tabs", {});
  await until(() => core.methods().includes("browser_tabs"));
  const o = await a.call("browser_open", { url: "https://e.com/" });
  assert.equal(o.structuredContent?.["outcome"], "unknown", text(o));
  const q = await slow;
  assert.equal(q.isError, false, text(q));
  const again = await a.call("browser_tabs", {});
  assert.equal(again.isError, false, text(again));
  assert.deepEqual(
    core.requests.map((r) => `${r.conn}:${r.method}`),
    ["1:browser_tabs", "1:browser_open", "2:hello", "2:resume", "2:browser_tabs"],
  );
});
