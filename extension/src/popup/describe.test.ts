import { test } from "node:test";
import assert from "node:assert/strict";
import { LifecyclePaused, LifecyclePausing, LifecycleReady } from "../protocol/generated";
import { describeHost, describePause, tabCount } from "./describe";

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
