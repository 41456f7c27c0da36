import { test } from "node:test";
import assert from "node:assert/strict";
import type { FakePort } from "../../testing/fake-chrome";
import { ErrorCatalogue } from "../../protocol/generated";
import { dispatcher } from "./dispatch";
import { HostConnection, WATCHDOG_ALARM } from "./host-connection";
import { kit, LOOK, ManualClock } from "../../testing/testkit";

function connected() {
  const k = kit();
  const clock = new ManualClock();
  const conn = new HostConnection(k.fake, dispatcher(k.ctx, Promise.resolve()), clock, k.ctx.log);
  conn.connect();
  const port = (n = 0): FakePort => {
    const p = k.fake.ports[n];
    assert.ok(p, `port ${n} was opened`);
    return p;
  };
  return { ...k, clock, conn, port };
}

const welcome = { type: "welcome", protocol_version: 1, host_version: "1.0.0", origins: { allowed: [], denied: [] }, local_files: false };

const responses = (p: FakePort) => p.sent.filter((m) => typeof m === "object" && m !== null && "type" in m && m.type === "response");

test("the worker says hello on a new port and is connected after the welcome", async () => {
  const { fake, conn, port } = connected();
  assert.deepEqual(fake.calls, ["runtime.connectNative com.agenttab.host"]);
  assert.deepEqual(port().sent, [{ type: "hello", protocol_version: 1, extension_id: "fakeextensionid", extension_version: "0.0.0", paused: false, yolo: true }]);
  assert.deepEqual(conn.state, { state: "connecting" });
  port().hostSend(welcome);
  await fake.settle();
  assert.deepEqual(conn.state, { state: "connected", hostVersion: "1.0.0" });
});

test("requests are answered by id; an unknown method fails not_started", async () => {
  const { fake, port } = connected();
  port().hostSend(welcome);
  port().hostSend({ type: "request", id: 1, method: "ping", params: {}, class: "read" });
  port().hostSend({ type: "request", id: 2, method: "teleport", params: {}, class: "read" });
  port().hostSend({ type: "request", id: 3, method: "open", params: { task: LOOK, url: 5 }, class: "mutation" });
  await fake.settle();
  const byId = new Map(responses(port()).map((r) => [JSON.stringify(r).match(/"id":(\d+)/)?.[1], r]));
  assert.deepEqual(byId.get("1"), { type: "response", id: 1, result: {} });
  assert.deepEqual(byId.get("2"), {
    type: "response",
    id: 2,
    error: {
      code: "unknown_method",
      message: 'the extension has no method "teleport"',
      recovery: ErrorCatalogue.unknown_method.recovery,
      outcome: "not_started",
    },
  });
  assert.match(JSON.stringify(byId.get("3")), /"code":"invalid_params".*"outcome":"not_started"/);
});

test("open over the port answers with the tab; a slow request does not hold up another", async () => {
  const { fake, port } = connected();
  fake.addWindow({ focused: true });
  fake.autoLoad = false;
  port().hostSend(welcome);
  port().hostSend({ type: "request", id: 7, method: "open", params: { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 100 }, class: "mutation" });
  port().hostSend({ type: "request", id: 8, method: "ping", params: null, class: "read" });
  await fake.settle();
  assert.deepEqual(responses(port()), [{ type: "response", id: 8, result: {} }]);
  await new Promise((r) => setTimeout(r, 150));
  await fake.settle();
  const open = responses(port())[1];
  assert.match(JSON.stringify(open), /"id":7,"result":\{"tab":\{"tab_id":\d+,.*"loading":true/);
});

test("events reach a welcomed host only", async () => {
  const { fake, conn, port } = connected();
  conn.notify("revision", { tab_id: 1, revision: 2 });
  port().hostSend(welcome);
  await fake.settle();
  conn.notify("revision", { tab_id: 1, revision: 3 });
  assert.deepEqual(port().sent.slice(1), [{ type: "event", event: "revision", params: { tab_id: 1, revision: 3 } }]);
});

test("a request before the welcome is not answered", async () => {
  const { fake, port } = connected();
  port().hostSend({ type: "request", id: 1, method: "ping", params: {}, class: "read" });
  await fake.settle();
  assert.deepEqual(responses(port()), []);
});

test("a lost port reconnects with backoff that doubles to 30 s and resets after a welcome", async () => {
  const { fake, clock, conn, port } = connected();
  const delays: number[] = [];
  for (let i = 0; i < 8; i++) {
    port(i).hostDisconnect("Specified native messaging host not found.");
    await fake.settle();
    const [delay] = clock.waiting();
    assert.ok(delay !== undefined);
    delays.push(delay);
    assert.equal(fake.ports.length, i + 1, "no new port before the delay");
    clock.advance(delay);
    assert.equal(fake.ports.length, i + 2);
    assert.deepEqual(port(i + 1).sent, [{ type: "hello", protocol_version: 1, extension_id: "fakeextensionid", extension_version: "0.0.0", paused: false, yolo: true }]);
  }
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  assert.equal(fake.alarmMap.get(WATCHDOG_ALARM), 0.5, "an alarm backs the timer up");
  port(8).hostSend(welcome);
  await fake.settle();
  port(8).hostDisconnect();
  await fake.settle();
  assert.deepEqual(clock.waiting(), [500]);
  assert.deepEqual(conn.state, { state: "reconnecting", reason: "the host closed the connection", retryInMs: 500 });
});

test("a reject is shown with its reason and retried with backoff", async () => {
  const { fake, clock, conn, port } = connected();
  const error = { code: "protocol_version_mismatch", message: "host speaks 2", recovery: "Update AgentTab.", outcome: "not_started" };
  port().hostSend({ type: "reject", error });
  port().hostDisconnect();
  await fake.settle();
  assert.deepEqual(conn.state, { state: "rejected", code: error.code, message: error.message, recovery: error.recovery });
  assert.deepEqual(clock.waiting(), [500]);
});

test("a welcome with another protocol version is refused", async () => {
  const { fake, clock, conn, port } = connected();
  port().hostSend({ ...welcome, protocol_version: 2 });
  await fake.settle();
  assert.equal(port().closed, true);
  assert.equal(conn.state.state, "rejected");
  assert.deepEqual(clock.waiting(), [500]);
});

// Chrome drops a one-shot alarm when it fires (the fake keeps it).
function fireWatchdog(fake: ReturnType<typeof kit>["fake"]): void {
  fake.alarmMap.delete(WATCHDOG_ALARM);
  fake.fireAlarm(WATCHDOG_ALARM);
}

test("the watchdog reconnects at once; it is a no-op while a port is open", async () => {
  const { fake, clock, port } = connected();
  fireWatchdog(fake);
  await fake.settle();
  assert.equal(fake.ports.length, 1);
  port().hostDisconnect();
  await fake.settle();
  fireWatchdog(fake);
  await fake.settle();
  assert.equal(fake.ports.length, 2);
  assert.deepEqual(clock.waiting(), [], "the pending timer was cancelled");
});

// Chrome can stop the worker with its port open: the host exits and no
// disconnect handler runs, so only an armed alarm wakes the worker.
test("the watchdog stays armed while connected and is armed again at every firing", async () => {
  const { fake, port } = connected();
  assert.equal(fake.alarmMap.get(WATCHDOG_ALARM), 0.5, "armed with the first port");
  port().hostSend(welcome);
  await fake.settle();
  assert.equal(fake.alarmMap.get(WATCHDOG_ALARM), 0.5, "the welcome leaves it armed");
  for (let i = 0; i < 3; i++) {
    fireWatchdog(fake);
    await fake.settle();
    assert.equal(fake.alarmMap.get(WATCHDOG_ALARM), 0.5, `armed again after firing ${i + 1}`);
  }
  assert.equal(fake.ports.length, 1, "a firing opens no second port while one is open");
});

test("a worker woken by the watchdog after Chrome stopped it connects again and keeps the watchdog armed", async () => {
  const { fake, port, ctx } = connected();
  port().hostSend(welcome);
  await fake.settle();
  // The stopped worker's objects are gone, the alarm is Chrome's: a fresh
  // worker builds its connection (main.ts) and the alarm's event arrives.
  const fresh = new HostConnection(fake, dispatcher(ctx, Promise.resolve()), new ManualClock(), ctx.log);
  fireWatchdog(fake);
  await fake.settle();
  assert.equal(fake.ports.length, 2, "the woken worker opened a port, so Chrome starts a host");
  assert.equal(fake.alarmMap.get(WATCHDOG_ALARM), 0.5);
  port(1).hostSend(welcome);
  await fake.settle();
  assert.deepEqual(fresh.state, { state: "connected", hostVersion: "1.0.0" });
});

test("an answer for a host that has gone is not sent to the next one", async () => {
  const { fake, clock, port } = connected();
  fake.addWindow({ focused: true });
  fake.autoLoad = false;
  port().hostSend(welcome);
  port().hostSend({ type: "request", id: 1, method: "open", params: { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 50 }, class: "mutation" });
  await fake.settle();
  port().hostDisconnect();
  await fake.settle();
  clock.advance(500);
  await new Promise((r) => setTimeout(r, 80));
  await fake.settle();
  assert.deepEqual(responses(port(0)), []);
  assert.deepEqual(responses(port(1)), []);
});

test("a request whose class disagrees with the extension's own is refused before it runs", async () => {
  const { fake, port } = connected();
  fake.addWindow({ focused: true });
  port().hostSend(welcome);
  // An act with a click labelled as a read, and an open labelled as nothing.
  port().hostSend({ type: "request", id: 1, method: "act", params: { task_id: "t1", tab_id: 1, expected_page_revision: 1, actions: [{ kind: "click", ref: "e1" }] }, class: "read" });
  port().hostSend({ type: "request", id: 2, method: "open", params: { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 50 } });
  await fake.settle();
  const answers = responses(port());
  assert.equal(answers.length, 2);
  for (const a of answers) assert.match(JSON.stringify(a), /"code":"classification_mismatch".*"outcome":"not_started"/);
  assert.ok(!fake.calls.some((c) => c.startsWith("tabs.create") || c.startsWith("debugger.")), `nothing ran: ${fake.calls.join(", ")}`);
});

test("the welcome's origin policy reaches the guard; a welcome without one is refused", async () => {
  const k = kit();
  const conn = new HostConnection(k.fake, dispatcher(k.ctx, Promise.resolve()), new ManualClock(), k.ctx.log, () => ({ paused: false, yolo: true }), (w) => k.ctx.origins.welcomed(w));
  conn.connect();
  k.fake.ports[0]?.hostSend({ ...welcome, origins: { allowed: [], denied: [{ scheme: "https", host: "evil.test", subdomains: false, port: 0 }] }, local_files: false });
  await k.fake.settle();
  assert.equal(conn.state.state, "connected");
  assert.equal(k.ctx.origins.constrained, true);
  assert.equal(k.ctx.origins.holding, true);

  // A welcome that does not say whether local folders are admitted is refused too.
  const unsure = new HostConnection(k.fake, dispatcher(k.ctx, Promise.resolve()), new ManualClock(), k.ctx.log, () => ({ paused: false, yolo: true }), (w) => k.ctx.origins.welcomed(w));
  unsure.connect();
  k.fake.ports[1]?.hostSend({ ...welcome, local_files: undefined });
  await k.fake.settle();
  assert.deepEqual(unsure.state.state === "rejected" ? [unsure.state.code, unsure.state.message] : unsure.state, ["invalid_request", "the host's welcome cannot be read: welcome.local_files must be true or false"]);

  const old = new HostConnection(k.fake, dispatcher(k.ctx, Promise.resolve()), new ManualClock(), k.ctx.log, () => ({ paused: false, yolo: true }), (w) => k.ctx.origins.welcomed(w));
  old.connect();
  k.fake.ports[2]?.hostSend({ ...welcome, origins: undefined });
  await k.fake.settle();
  assert.equal(conn.state.state, "connected");
  assert.deepEqual(old.state.state === "rejected" ? [old.state.code, old.state.message] : old.state, ["invalid_request", "the host's welcome cannot be read: welcome.origins must be an object"]);
  assert.equal(k.fake.ports[2]?.closed, true);
});

test("the worker's questions to the host are answered by id; without a host, on a closed port or with no answer in time they are rejected", async () => {
  const { fake, conn, port, clock } = connected();
  await assert.rejects(conn.ask("local_file", { url: "file:///a" }, 1000), /not connected/);
  port().hostSend(welcome);
  await fake.settle();
  const first = conn.ask("local_file", { url: "file:///a" }, 1000);
  const second = conn.ask("local_file", { url: "file:///b" }, 1000);
  assert.deepEqual(
    port().sent.filter((m) => typeof m === "object" && m !== null && "type" in m && m.type === "request"),
    [
      { type: "request", id: 1, method: "local_file", params: { url: "file:///a" } },
      { type: "request", id: 2, method: "local_file", params: { url: "file:///b" } },
    ],
  );
  port().hostSend({ type: "response", id: 2, error: { code: "local_file_denied", message: "no" } });
  port().hostSend({ type: "response", id: 1, result: { admitted: true } });
  assert.deepEqual(await first, { result: { admitted: true } });
  assert.deepEqual(await second, { error: { code: "local_file_denied", message: "no" } });

  const late = conn.ask("local_file", { url: "file:///c" }, 1000);
  clock.advance(1000);
  await assert.rejects(late, /did not answer within 1000 ms/);
  port().hostSend({ type: "response", id: 3, result: { admitted: true } });

  const cut = conn.ask("local_file", { url: "file:///d" }, 1000);
  port().hostDisconnect();
  await assert.rejects(cut, /disconnected before it answered/);
});

test("a question the port cannot send fails at once instead of waiting for its timeout", async () => {
  const { fake, conn, port, clock } = connected();
  port().hostSend(welcome);
  await fake.settle();
  // Chrome throws on a port that has just disconnected, before onDisconnect is delivered.
  port().closed = true;
  let rejected: unknown;
  conn.ask("local_file", { url: "file:///a" }, 60_000).catch((e: unknown) => (rejected = e));
  await fake.settle();
  assert.match(String(rejected), /could not be sent/);
  assert.deepEqual(clock.waiting().filter((ms) => ms === 60_000), [], "no timer is left waiting for an answer");
});
