import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { AgentTab } from "./agenttab";
import { sessionFileName } from "./claim";
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

/** T is the private files' base name of at()'s session. */
const T = sessionFileName("t", "conv-1");

function at(stateDir: string): AgentTab {
  return AgentTab.open({ adapter: "t", adapterVersion: "1.2.3", stateDir, session: "conv-1" });
}

test("the Standard tools are protocol.StandardTools, browser_developer is Developer-only", () => {
  const a = AgentTab.open({ adapter: "t", adapterVersion: "0", stateDir: "/nonexistent", session: "s" });
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

test("a new session never resumes the last session's task; the same session does", async () => {
  const core = await FakeCore.start((r: Req): Answer => (r.method === "browser_open" ? { result: open, capability: CAP } : { result: r.method === "resume" ? { resumed: true } : r.method === "capability_confirm" ? { confirmed: true } : tabs }));
  const first = at(core.stateDir);
  assert.equal((await first.call("browser_open", { url: "https://e.com/" })).isError, false);
  const firstFile = first.capabilityPath();
  assert.equal(firstFile !== undefined && fs.readFileSync(firstFile, "utf8"), CAP + "\n");
  await first.close();
  // A later process for another conversation: no resume, a task of its own.
  const other = AgentTab.open({ adapter: "t", adapterVersion: "1.2.3", stateDir: core.stateDir, session: "conv-2" });
  core.requests.length = 0;
  assert.equal((await other.call("browser_tabs", {})).isError, false);
  assert.deepEqual(core.methods(), ["hello", "browser_tabs"]);
  assert.ok(other.capabilityPath() !== undefined && other.capabilityPath() !== firstFile);
  // A later process for the first conversation resumes its task.
  const again = at(core.stateDir);
  core.requests.length = 0;
  assert.equal((await again.call("browser_tabs", {})).isError, false);
  assert.deepEqual(core.requests.map((r) => [r.method, r.params]).slice(0, 2), [["hello", { client_name: "agenttab-t", client_version: "1.2.3", conversation_id: "conv-1" }], ["resume", { capability: CAP }]]);
  await other.close();
  await again.close();
  await core.stop();
  assert.throws(() => AgentTab.open({ adapter: "t", adapterVersion: "0", session: "" }), /session must be the agent's session id/);
});

test("a capability the host no longer resumes is dropped with the key seed: a new task", async () => {
  const core = await FakeCore.start((r: Req): Answer => (r.method === "resume" ? { result: { resumed: false } } : { result: tabs }));
  const dir = path.join(core.stateDir, "adapters");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, T + ".capability"), CAP + "\n", { mode: 0o600 });
  fs.writeFileSync(path.join(dir, T + ".keys"), JSON.stringify({ secret: Buffer.alloc(32, 1).toString("base64"), unix_ms: 5 }) + "\n", { mode: 0o600 });
  const a = at(core.stateDir);
  const r = await a.call("browser_tabs", {});
  assert.equal(r.isError, false, text(r));
  assert.deepEqual(core.methods(), ["hello", "resume", "browser_tabs"]);
  assert.ok(!fs.existsSync(path.join(dir, T + ".capability")) && !fs.existsSync(path.join(dir, T + ".keys")));
  await a.close();
  await core.stop();
});

test("a capability file others can read is refused, and nothing is sent", async () => {
  const core = await FakeCore.start(() => ({ result: tabs }));
  const dir = path.join(core.stateDir, "adapters");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, T + ".capability"), CAP + "\n");
  fs.chmodSync(path.join(dir, T + ".capability"), 0o644);
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

test("a call cancelled before its answer: the capability that answer carries is still kept and confirmed", { timeout: 10_000 }, async () => {
  let issued = false;
  let confirmed = false;
  const core = await FakeCore.start((r: Req): Answer => {
    switch (r.method) {
      case "browser_open":
        issued = true;
        return { result: open, capability: CAP, delayMs: 200 };
      case "capability_confirm":
        confirmed = true;
        return { result: { confirmed: true } };
      default:
        return !issued || confirmed ? { result: tabs } : { error: { code: "capability_unconfirmed", message: "confirm first", recovery: "r", outcome: "not_started" } };
    }
  });
  const a = at(core.stateDir);
  const ac = new AbortController();
  const opening = a.call("browser_open", { url: "https://e.com/" }, ac.signal);
  setTimeout(() => ac.abort(), 50);
  const o = await opening;
  assert.equal(o.structuredContent?.["code"], "extension_timeout", text(o));
  // The answer arrives after the caller left: kept and confirmed all the same.
  await new Promise((res) => setTimeout(res, 400));
  const t = await a.call("browser_tabs", {});
  assert.equal(t.isError, false, text(t));
  assert.equal(fs.readFileSync(a.capabilityPath() ?? "", "utf8"), CAP + "\n");
  assert.ok(core.methods().includes("capability_confirm"));
  await a.close();
  await core.stop();
});

test("a failed file removal does not turn a finished task into an error", async () => {
  const finish = { task: { id: "task_1", label: "t" }, released: 1, closed: 1, outcome: "confirmed" };
  const core = await FakeCore.start((r: Req): Answer => (r.method === "browser_open" ? { result: open, capability: CAP } : r.method === "capability_confirm" ? { result: { confirmed: true } } : { result: finish }));
  const a = at(core.stateDir);
  assert.equal((await a.call("browser_open", { url: "https://e.com/" })).isError, false);
  // The capability's path now names what unlink refuses (a non-empty directory).
  const p = a.capabilityPath() ?? "";
  fs.rmSync(p);
  fs.mkdirSync(p);
  fs.writeFileSync(path.join(p, "x"), "");
  const f = await a.call("browser_finish", {});
  assert.equal(f.isError, false, text(f));
  await a.close();
  await core.stop();
});

test("the Developer-mode probe never waits for a host that went away, nor uses up the next call's wait", { timeout: 20_000 }, async () => {
  const core = await FakeCore.start(() => ({ result: tabs }));
  const a = at(core.stateDir);
  assert.equal((await a.call("browser_tabs", {})).isError, false);
  await core.stop();
  await new Promise((res) => setTimeout(res, 50));
  // The host is gone and stays gone while the probe runs: it answers at once.
  assert.equal(await a.developerEnabled(), false);
  // The host comes back while the next call waits for it.
  const back = new Promise<FakeCore>((res) => setTimeout(() => void FakeCore.startAt(core.stateDir, () => ({ result: tabs })).then(res), 300));
  const r = await a.call("browser_tabs", {});
  assert.equal(r.isError, false, text(r));
  await a.close();
  await (await back).stop();
});
