import { test } from "node:test";
import assert from "node:assert/strict";
import type { Step, StepReceipt } from "../../protocol/generated";
import { CommandTimeout, DialogOpened } from "../cdp/session";
import { Failure } from "../native/failure";
import { failedReceipt, Progress, runSteps, stepFailure } from "./receipts";

const steps: Step[] = [
  { kind: "click", ref: "e1" },
  { kind: "fill", ref: "e2", text: "x" },
  { kind: "press", keys: "Enter" },
  { kind: "reload" },
];

test("every step runs when none fails", async () => {
  const ran: number[] = [];
  const receipts = await runSteps(steps, async (s, i) => {
    ran.push(i);
    return { index: i, kind: s.kind, outcome: "dispatched" };
  });
  assert.deepEqual(ran, [0, 1, 2, 3]);
  assert.deepEqual(receipts.map((r) => r.outcome), ["dispatched", "dispatched", "dispatched", "dispatched"]);
});

test("the batch stops at the first failed step; later steps are not_started and never run", async () => {
  const ran: number[] = [];
  const receipts = await runSteps(steps, async (s, i): Promise<StepReceipt> => {
    ran.push(i);
    if (i === 1) return failedReceipt(i, s, new Failure("focus_lost", "dispatched", "focus went elsewhere", "retry"));
    return { index: i, kind: s.kind, outcome: "confirmed" };
  });
  assert.deepEqual(ran, [0, 1]);
  assert.deepEqual(receipts, [
    { index: 0, kind: "click", outcome: "confirmed" },
    { index: 1, kind: "fill", outcome: "dispatched", error: { code: "focus_lost", message: "focus went elsewhere", recovery: "retry", outcome: "dispatched" } },
    { index: 2, kind: "press", outcome: "not_started" },
    { index: 3, kind: "reload", outcome: "not_started" },
  ]);
});

test("a failure before anything was sent is not_started; after input went out it is unknown", () => {
  const before = new Progress();
  assert.equal(stepFailure(new CommandTimeout("Runtime.callFunctionOn", 10), before).detail.outcome, "not_started");
  const after = new Progress();
  after.dispatched = true;
  const lost = stepFailure(new CommandTimeout("Input.dispatchMouseEvent", 10), after).detail;
  assert.equal(lost.outcome, "unknown");
  assert.equal(lost.code, "chrome_error");
  const dialog = stepFailure(new DialogOpened({ type: "alert", message: "hi" }), before).detail;
  assert.equal(dialog.code, "dialog_open");
  assert.equal(dialog.outcome, "not_started");
  const known = new Failure("stale_ref", "not_started", "m", "r");
  assert.equal(stepFailure(known, after), known);
});
