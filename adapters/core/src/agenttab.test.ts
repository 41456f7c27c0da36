import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { AgentTab } from "./agenttab";
import { FakeCore } from "./fakecore.testkit";
import type { Answer, Req } from "./fakecore.testkit";
import { StandardTools } from "./protocol";
import { adapterConstants, tools } from "./tools.generated";
import type { ToolResult } from "./types";

const open = { task: { id: "task_1", label: "t" }, tab: { tab: "tab_1", url: "https://e.com/", title: "t", automation_route: "full", page_revision: 1, loading: false }, placement: "tab", outcome: "confirmed" };
const tabs = { task: { id: "task_1", label: "t" }, tabs: [], outcome: "observed" };
const CAP = "cap-SECRET-0123456789";

function text(r: ToolResult): string {
  const c = r.content[0];
  return c !== undefined && c.type === "text" ? c.text : "";
}

function at(stateDir: string): AgentTab {
  return AgentTab.open({ adapter: "t", adapterVersion: "1.2.3", stateDir, conversationId: "conv-1" });
}

test("the Standard tools are protocol.StandardTools, browser_developer is Developer-only", () => {
  const a = AgentTab.open({ adapter: "t", adapterVersion: "0", stateDir: "/nonexistent" });
  assert.deepEqual(a.standardTools().map((t) => t.name), [...StandardTools]);
  assert.deepEqual(tools.filter((t) => t.developerOnly).map((t) => t.name), ["browser_developer"]);
  assert.equal(a.capabilityPath(), undefined, "open does no I/O");
});

test("no host: host_unavailable, not_started, the Go adapter's words", async () => {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "nohost-"));
  const a = at(state);
  const r = await a.call("browser_tabs", {});
  assert.equal(r.isError, true);
  assert.deepEqual(r.structuredContent, { code: "host_unavailable", message: adapterConstants.hostUnreachableMessage, recovery: adapterConstants.hostUnreachableRecovery, outcome: "not_started" });
  assert.equal(await a.developerEnabled(), false);
  await a.close();
});

test("persist, then confirm: the capability is on disk (0600) before capability_confirm, and a refused call is resent", async () => {
  let unconfirmed = false;
  let onDisk = "";
  let a: AgentTab | undefined;
  const core = await FakeCore.start((r: Req): Answer => {
    switch (r.method) {
      case "browser_open":
        unconfirmed = true;
        return { result: open, capability: CAP };
      case "capability_confirm": {
        const p = a?.capabilityPath() ?? "";
        onDisk = `${(fs.statSync(p).mode & 0o777).toString(8)} ${fs.readFileSync(p, "utf8")}`;
        unconfirmed = false;
        return { result: { confirmed: true } };
      }
      default:
        if (unconfirmed) {
          return { error: { code: "capability_unconfirmed", message: "confirm first", recovery: "r", outcome: "not_started" } };
        }
        return { result: tabs };
    }
  });
  a = at(core.stateDir);
  const [o, t] = await Promise.all([a.call("browser_open", { url: "https://e.com/" }), a.call("browser_tabs", {})]);
  assert.equal(o.isError, false, text(o));
  assert.equal(t.isError, false, text(t));
  assert.equal(onDisk, `600 ${CAP}\n`);
  const hello = core.requests.find((r) => r.method === "hello");
  assert.deepEqual(hello?.params, { client_name: "agenttab-t", client_version: "1.2.3", conversation_id: "conv-1" });
  for (const r of [o, t]) {
    assert.ok(!JSON.stringify(r).includes(CAP), "the capability is in a result");
  }

  // The host restarted: the next call resumes with the kept capability.
  core.dropAll();
  await new Promise((res) => setTimeout(res, 50));
  const again = await a.call("browser_tabs", {});
  assert.equal(again.isError, false, text(again));
  const resume = core.requests.filter((r) => r.method === "resume");
  assert.deepEqual(resume.map((r) => r.params), [{ capability: CAP }]);
  await a.close();
  await core.stop();
});

test("a capability the host no longer resumes is dropped with the key seed: a new task", async () => {
  const core = await FakeCore.start((r: Req): Answer => (r.method === "resume" ? { result: { resumed: false } } : { result: tabs }));
  const dir = path.join(core.stateDir, "adapters");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, "t-1.capability"), CAP + "\n", { mode: 0o600 });
  fs.writeFileSync(path.join(dir, "t-1.keys"), JSON.stringify({ secret: Buffer.alloc(32, 1).toString("base64"), unix_ms: 5 }) + "\n", { mode: 0o600 });
  const a = at(core.stateDir);
  const r = await a.call("browser_tabs", {});
  assert.equal(r.isError, false, text(r));
  assert.deepEqual(core.methods(), ["hello", "resume", "browser_tabs"]);
  assert.ok(!fs.existsSync(path.join(dir, "t-1.capability")) && !fs.existsSync(path.join(dir, "t-1.keys")));
  await a.close();
  await core.stop();
});

test("a capability file others can read is refused, and nothing is sent", async () => {
  const core = await FakeCore.start(() => ({ result: tabs }));
  const dir = path.join(core.stateDir, "adapters");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, "t-1.capability"), CAP + "\n");
  fs.chmodSync(path.join(dir, "t-1.capability"), 0o644);
  const a = at(core.stateDir);
  const r = await a.call("browser_tabs", {});
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent?.["outcome"], "not_started");
  assert.match(text(r), /readable by other users/);
  assert.ok(!text(r).includes(CAP));
  assert.deepEqual(core.methods(), []);
  await a.close();
  await core.stop();
});

test("the host's farewell (connection_idle) before the answer: sent once more on a new connection", async () => {
  let first = true;
  const core = await FakeCore.start((r: Req): Answer => {
    if (r.method === "browser_tabs" && first) {
      first = false;
      return "farewell";
    }
    return { result: tabs };
  });
  const a = at(core.stateDir);
  const r = await a.call("browser_tabs", {});
  assert.equal(r.isError, false, text(r));
  assert.deepEqual(core.requests.map((q) => `${q.conn}:${q.method}`), ["1:hello", "1:browser_tabs", "2:hello", "2:browser_tabs"]);
  await a.close();
  await core.stop();
});

test("a connection lost mid-call: a mutation's outcome is unknown, a read's not_started", async () => {
  const core = await FakeCore.start((r: Req): Answer => (r.method === "browser_open" || r.method === "browser_tabs" ? "drop" : { result: tabs }));
  const a = at(core.stateDir);
  const m = await a.call("browser_open", { url: "https://e.com/" });
  assert.equal(m.structuredContent?.["code"], "host_unavailable");
  assert.equal(m.structuredContent?.["outcome"], "unknown");
  const q = await a.call("browser_tabs", {});
  assert.equal(q.structuredContent?.["outcome"], "not_started");
  assert.equal(core.requests.filter((x) => x.method === "browser_open").length, 1, "a mutation that may have run is never resent");
  await a.close();
  await core.stop();
});

test("a starting host is waited for; invalid arguments send nothing", async () => {
  let refused = false;
  const core = await FakeCore.start((r: Req): Answer => {
    if (r.method === "status") {
      return { result: { lifecycle: "ready", protocol_version: 1, host_version: "t" } };
    }
    if (!refused) {
      refused = true;
      return { error: { code: "host_unavailable", message: "starting", recovery: "wait", outcome: "not_started", lifecycle: "starting" } };
    }
    return { result: tabs };
  });
  const a = at(core.stateDir);
  const r = await a.call("browser_tabs", {});
  assert.equal(r.isError, false, text(r));
  assert.deepEqual(core.methods(), ["hello", "browser_tabs", "status", "browser_tabs"]);
  const bad = await a.call("browser_act", { tab: "tab_1", expected_page_revision: 1, actions: [{ kind: "fly" }] });
  assert.equal(text(bad).split("\n")[0], 'invalid_params: actions[0].kind: enum: fly does not equal any of: [back check clear click close dialog double_click drag fill focus forward hover navigate press reload scroll select type uncheck upload_file wait]');
  const unknown = await a.call("browser_fly", {});
  assert.equal(unknown.structuredContent?.["code"], "invalid_params");
  assert.deepEqual(core.methods(), ["hello", "browser_tabs", "status", "browser_tabs"]);
  await a.close();
  await core.stop();
});
