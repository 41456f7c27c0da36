import { test } from "node:test";
import assert from "node:assert/strict";
import { EffectValues, HandoffReasonValues, LifecyclePaused, LifecyclePausing, LifecycleReady, PauseByDebuggerCancel, PauseByUser } from "../protocol/generated";
import { ago, describeEffect, describeField, describePause, describeHost, describeReason, describeTaskState, tabCount, timeLeft } from "./describe";

test("describeHost names each connection state", () => {
  assert.equal(describeHost({ state: "connected", hostVersion: "1.2.3" }).line, "Connected to the host 1.2.3.");
  assert.match(describeHost({ state: "reconnecting", reason: "Specified native messaging host not found.", retryInMs: 1500 }).line, /host not found\. Retrying in 2 s\.$/);
  const rejected = describeHost({ state: "rejected", code: "protocol_version_mismatch", message: "host speaks 2", recovery: "Update AgentTab." });
  assert.equal(rejected.line, "The host refused the extension (protocol_version_mismatch): host speaks 2");
  assert.equal(rejected.recovery, "Update AgentTab.");
});

test("tabCount", () => {
  assert.equal(tabCount(0), "0 tabs");
  assert.equal(tabCount(1), "1 tab");
});

// Spec 001: Pause is a barrier, not an optimistic toggle. The popup says
// pausing, and what is still settling, until the Pause is in force, and
// offers no second click meanwhile.
test("describePause: running, pausing with what is still settling, paused", () => {
  assert.deepEqual(describePause(LifecycleReady, 0), { line: "", button: "Pause agents", busy: false });
  const one = describePause(LifecyclePausing, 1);
  assert.equal(one.line, "Pausing: no new work starts; waiting for 1 agent request already running to finish.");
  assert.deepEqual({ button: one.button, busy: one.busy }, { button: "Pausing…", busy: true });
  assert.match(describePause(LifecyclePausing, 3).line, /waiting for 3 agent requests already running to finish\.$/);
  assert.equal(describePause(LifecyclePausing, 0).line, "Pausing: no new work starts; waiting for the host to confirm.");
  assert.deepEqual(describePause(LifecyclePaused, 0), { line: "Agents are paused: no browser work runs until you resume.", button: "Resume agents", busy: false });
});

// Issue 12: a Cancel on Chrome's debugging banner is the user's Pause, and
// the popup says what it was, since the user may not connect the two.
test("describePause names the debugging banner's Cancel", () => {
  assert.equal(describePause(LifecyclePaused, 0, PauseByDebuggerCancel).line, "Paused: you clicked Cancel on Chrome's debugging banner. Resume lets agents work again.");
  assert.equal(describePause(LifecyclePaused, 0, PauseByUser).line, "Agents are paused: no browser work runs until you resume.");
  assert.equal(describePause(LifecyclePaused, 0, PauseByDebuggerCancel).button, "Resume agents");
});

test("every effect and handoff reason has its words", () => {
  for (const e of EffectValues) assert.match(describeEffect("Agent 1", e), /^Agent 1 wants to [a-z]/);
  assert.equal(describeEffect("Agent 1", "purchase"), "Agent 1 wants to make a purchase");
  for (const r of HandoffReasonValues) assert.match(describeReason("Agent 1", r), /^Agent 1 needs you for [a-zA-Z]/);
  assert.equal(describeReason("Agent 2", "captcha"), "Agent 2 needs you for a CAPTCHA");
});

// A sensitive field's value is never kept (the worker sends it empty);
// the popup says the field is there and that its value is hidden.
test("describeField hides sensitive values", () => {
  assert.equal(describeField({ label: "To", value: "ada@example.com", sensitive: false }), "To: ada@example.com");
  assert.equal(describeField({ label: "Password", value: "", sensitive: true }), "Password: (hidden)");
  assert.equal(describeField({ label: "Password", value: "leak", sensitive: true }), "Password: (hidden)");
  assert.equal(describeField({ label: "", value: "", sensitive: false }), "(unlabelled field): (empty)");
});

test("ago, timeLeft and the task's state", () => {
  assert.equal(ago(1200), "just now");
  assert.equal(ago(45_000), "45 s ago");
  assert.equal(ago(125_000), "2 min ago");
  assert.equal(ago(3 * 3600_000 + 5), "3 h ago");
  assert.equal(timeLeft(300_000), "5 min left");
  assert.equal(timeLeft(45_000), "45 s left");
  assert.equal(timeLeft(0), "expired");
  assert.equal(describeTaskState(true, 125_000), "connected · last acted 2 min ago");
  assert.equal(describeTaskState(false), "disconnected");
});
