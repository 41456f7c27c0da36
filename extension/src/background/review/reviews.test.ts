import { test } from "node:test";
import assert from "node:assert/strict";
import { FakeChrome } from "../../testing/fake-chrome";
import { ManualClock } from "../../testing/testkit";
import type { Log } from "../log";
import { Reviews, STAGES_KEY, YOLO_KEY } from "./reviews";
import type { StageEntry } from "./reviews";

const log: Log = { info: () => undefined, warn: () => undefined };

function entry(handle: string, taskId: string, createdAt: number): StageEntry {
  return { handle, taskId, tabId: 7, effect: "send", origin: "https://a.test", control: "Send", fields: [{ label: "To", value: "bob", sensitive: false }], createdAt, expiresAt: createdAt + 300_000, state: "pending" };
}

test("YOLO mode is on by default, persists, and an unreadable record fails closed (review)", async () => {
  const fake = new FakeChrome();
  const clock = new ManualClock();
  const r = new Reviews(fake.storageLocal, clock, log);
  await r.load();
  assert.equal(r.yolo, true);
  await r.setYolo(false);
  const again = new Reviews(fake.storageLocal, clock, log);
  await again.load();
  assert.equal(again.yolo, false);
  await fake.storageLocal.set(YOLO_KEY, "yes");
  await again.load();
  assert.equal(again.yolo, false);
});

test("stages survive a reload; approve keeps, deny removes, YOLO on and the task's end drop them; expired ones leave the list", async () => {
  const fake = new FakeChrome();
  const clock = new ManualClock();
  const r = new Reviews(fake.storageLocal, clock, log);
  await r.load();
  await r.setYolo(false);
  await r.add(entry("h1", "t1", 0));
  await r.add(entry("h2", "t1", 0));
  await r.add(entry("h3", "t2", 0));
  const reloaded = new Reviews(fake.storageLocal, clock, log);
  await reloaded.load();
  assert.deepEqual((await reloaded.list()).map((e) => e.handle), ["h1", "h2", "h3"]);
  assert.equal((await reloaded.markReviewed("h1", true))?.handle, "h1");
  assert.equal(reloaded.get("h1")?.state, "approved");
  await reloaded.markReviewed("h2", false);
  assert.equal(reloaded.has("h2"), false, "a denied stage goes");
  assert.equal(await reloaded.markReviewed("nope", true), undefined);
  await reloaded.dropTask("t2");
  assert.deepEqual((await reloaded.list()).map((e) => e.handle), ["h1"]);
  clock.advance(300_000);
  assert.deepEqual(await reloaded.list(), [], "expired: not shown");
  assert.equal(reloaded.has("h1"), true, "kept a little longer: the host says expired, not discarded");
  clock.advance(60_000);
  await reloaded.list();
  assert.equal(reloaded.has("h1"), false, "retired");
  await reloaded.add(entry("h4", "t1", clock.now()));
  await reloaded.setYolo(true);
  assert.equal(reloaded.has("h4"), false, "YOLO on drops every stage");
  assert.deepEqual(await fake.storageLocal.get(STAGES_KEY), []);
});

test("an unreadable stage entry is dropped, the rest kept", async () => {
  const fake = new FakeChrome();
  await fake.storageLocal.set(YOLO_KEY, false);
  await fake.storageLocal.set(STAGES_KEY, [entry("h1", "t1", 0), { handle: "h2" }, { ...entry("h3", "t1", 0), effect: "explode" }]);
  const r = new Reviews(fake.storageLocal, new ManualClock(), log);
  await r.load();
  assert.deepEqual([r.has("h1"), r.has("h2"), r.has("h3")], [true, false, false]);
});

test("entries left with YOLO mode on (a worker stopped between setYolo's two writes) are dropped on load", async () => {
  const fake = new FakeChrome();
  await fake.storageLocal.set(STAGES_KEY, [entry("h1", "t1", 0)]);
  await fake.storageLocal.set(YOLO_KEY, true);
  const r = new Reviews(fake.storageLocal, new ManualClock(), log);
  await r.load();
  assert.equal(r.has("h1"), false, "no Approve button for a stage the host discards");
  assert.deepEqual(await fake.storageLocal.get(STAGES_KEY), []);

  await fake.storageLocal.set(STAGES_KEY, [entry("h2", "t1", 0)]);
  await fake.storageLocal.set(YOLO_KEY, false);
  await r.load();
  assert.equal(r.has("h2"), true, "with YOLO mode off they wait for review");
});

test("pending() counts the stages waiting for review and is announced on every change and again at expiry", async () => {
  const fake = new FakeChrome();
  const clock = new ManualClock();
  const seen: number[] = [];
  await fake.storageLocal.set(YOLO_KEY, false);
  await fake.storageLocal.set(STAGES_KEY, [entry("h1", "t1", 0)]);
  const r = new Reviews(fake.storageLocal, clock, log, (n) => seen.push(n));
  await r.load();
  assert.deepEqual(seen, [1], "announced on load");
  clock.advance(100_000);
  await r.add(entry("h2", "t1", clock.now()));
  await r.markReviewed("h2", true);
  assert.deepEqual(seen, [1, 2, 1], "an approved stage waits for the agent, not the human");
  clock.advance(200_000);
  assert.deepEqual(seen, [1, 2, 1, 0], "h1 expired: announced without any write");
  assert.equal(r.pending(), 0);
  assert.deepEqual(clock.waiting(), [], "no timer left");
});
