import { test } from "node:test";
import assert from "node:assert/strict";
import { Scheduler } from "./scheduler";

function gate() {
  let open = () => {};
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

const turn = () => new Promise((r) => setTimeout(r, 0));

test("one task's operations run in order; other tasks are not held up", async () => {
  const s = new Scheduler();
  const log: string[] = [];
  const g = gate();
  const a1 = s.task("a", async () => {
    log.push("a1 start");
    await g.opened;
    log.push("a1 end");
  });
  const a2 = s.task("a", async () => void log.push("a2"));
  const b1 = s.task("b", async () => void log.push("b1"));
  await b1;
  await turn();
  assert.deepEqual(log, ["a1 start", "b1"]);
  g.open();
  await Promise.all([a1, a2]);
  assert.deepEqual(log, ["a1 start", "b1", "a1 end", "a2"]);
});

test("a task's queued operations run first in, first out, and a read starts after those before it", async () => {
  const s = new Scheduler();
  const log: number[] = [];
  const seen: number[][] = [];
  const g = gate();
  const first = s.task("a", () => g.opened);
  const queued: Promise<unknown>[] = [first];
  for (let i = 0; i < 10; i++) {
    queued.push(s.task("a", async () => void log.push(i)));
    if (i === 4) queued.push(s.read("a", async () => void seen.push([...log])));
  }
  await turn();
  assert.deepEqual(log, [], "all wait behind the first");
  g.open();
  await Promise.all(queued);
  assert.deepEqual(log, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(seen[0]?.slice(0, 5), [0, 1, 2, 3, 4]);
});

test("a global operation waits for running tasks and holds back later ones", async () => {
  const s = new Scheduler();
  const log: string[] = [];
  const g = gate();
  const a1 = s.task("a", async () => {
    await g.opened;
    log.push("a1");
  });
  const global = s.global(async () => void log.push("global"));
  const b1 = s.task("b", async () => void log.push("b1"));
  await turn();
  assert.deepEqual(log, []);
  g.open();
  await Promise.all([a1, global, b1]);
  assert.deepEqual(log, ["a1", "global", "b1"]);
});

test("a failed operation does not block the next one", async () => {
  const s = new Scheduler();
  await assert.rejects(s.task("a", () => Promise.reject(new Error("boom"))));
  assert.equal(await s.task("a", async () => 42), 42);
});

test("a read waits for the task's earlier mutations but never holds back later ones", async () => {
  const s = new Scheduler();
  const log: string[] = [];
  const mutation = gate();
  const read = gate();
  const m1 = s.task("a", async () => {
    await mutation.opened;
    log.push("m1");
  });
  const r1 = s.read("a", async () => {
    log.push("read start");
    await read.opened;
    log.push("read end");
  });
  const m2 = s.task("a", async () => void log.push("m2"));
  await turn();
  assert.deepEqual(log, []);
  mutation.open();
  await m1;
  await m2;
  await turn();
  assert.deepEqual(log, ["m1", "read start", "m2"]);
  read.open();
  await r1;
  assert.deepEqual(log, ["m1", "read start", "m2", "read end"]);
});
