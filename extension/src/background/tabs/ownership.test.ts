import { test } from "node:test";
import assert from "node:assert/strict";
import { FakeChrome } from "../../testing/fake-chrome";
import { Ownership, STORAGE_KEY } from "./ownership";
import { LOOK, OTHER } from "../../testing/testkit";

const quiet = { info: () => undefined, warn: () => undefined };

test("a restarted worker rebuilds the map from storage.session", async () => {
  const fake = new FakeChrome();
  const before = new Ownership(fake.storageSession, quiet);
  before.add(LOOK, 10, 100, 1);
  before.add(LOOK, 11, 100, 1);
  before.add(OTHER, 20, 200, 2);
  before.bump(11);
  before.drop(10);
  await before.persist();

  const after = new Ownership(fake.storageSession, quiet);
  await after.load();
  assert.deepEqual(after.taskIds(), ["t1", "t2"]);
  assert.deepEqual(after.owner(11), { taskId: "t1", tab: { groupId: 100, windowId: 1, revision: 2, source: "created", opened: 2, refEpoch: 0, nextRef: 1 } });
  assert.equal(after.owner(10), undefined);
  // The opening order survives, so "most recent" stays right.
  after.add(OTHER, 21, 201, 3);
  assert.equal(after.latestWindow("t2"), 3);
  assert.equal(after.groupIn("t2", 2), 200);
  assert.equal(after.groupIn("t1", 2), undefined);
});

test("an unreadable record is dropped rather than trusted", async () => {
  const fake = new FakeChrome();
  await fake.storageSession.set(STORAGE_KEY, { v: 2, opened: 1, tasks: [{ look: LOOK, tabs: [[1, { groupId: "x" }]] }] });
  const warnings: string[] = [];
  const o = new Ownership(fake.storageSession, { info: () => undefined, warn: (m) => warnings.push(m) });
  await o.load();
  assert.deepEqual(o.taskIds(), []);
  assert.equal(warnings.length, 1);
});

test("after an extension reload (storage.session empty) the storage.local mirror is read; a browser start drops it", async () => {
  const fake = new FakeChrome();
  const before = new Ownership(fake.storageSession, quiet, fake.storageLocal);
  before.add(LOOK, 10, 100, 1);
  await before.persist();
  fake.storage.clear(); // the reload clears storage.session; storage.local stays

  const reloaded = new Ownership(fake.storageSession, quiet, fake.storageLocal);
  await reloaded.load();
  assert.equal(reloaded.owner(10)?.taskId, "t1", "the mirror restores the record");

  const restarted = new Ownership(fake.storageSession, quiet, fake.storageLocal);
  fake.storage.clear();
  await restarted.load();
  await restarted.browserStarted();
  assert.deepEqual(restarted.taskIds(), [], "a new browser session trusts no old tab id");
  const later = new Ownership(fake.storageSession, quiet, fake.storageLocal);
  fake.storage.clear();
  await later.load();
  assert.deepEqual(later.taskIds(), [], "the mirror was cleared too");
});
