import { test } from "node:test";
import assert from "node:assert/strict";
import { DefaultIdleMs, DefaultWaitMs } from "../../protocol/generated";
import type { Step, WaitCondition } from "../../protocol/generated";
// The table the host's checkWaitCondition is tested on too (internal/host/wait_counts_test.go).
import waitCounts from "../../../../protocol/testdata/wait_counts.json";
import { Failure } from "../native/failure";
import { checkNavigateUrl, checkSteps, checkWait } from "./validate";

function refused(f: () => unknown): Failure {
  try {
    f();
  } catch (e) {
    if (e instanceof Failure) return e;
    throw e;
  }
  assert.fail("expected a Failure");
}

test("every kind accepts what it needs", () => {
  const ok: Step[] = [
    { kind: "click", ref: "e1" },
    { kind: "double_click", ref: "e1" },
    { kind: "hover", ref: "e1" },
    { kind: "focus", ref: "e1" },
    { kind: "type", ref: "e1", text: "x" },
    { kind: "fill", ref: "e1", text: "" },
    { kind: "clear", ref: "e1" },
    { kind: "press", keys: "Control+Shift+Tab" },
    { kind: "press", keys: "Enter", ref: "e2" },
    { kind: "select", ref: "e1", values: ["Large"] },
    { kind: "check", ref: "e1" },
    { kind: "uncheck", ref: "e1" },
    { kind: "scroll", delta_y: 300 },
    { kind: "scroll", ref: "e9" },
    { kind: "drag", ref: "e1", to_ref: "e2" },
    { kind: "navigate", url: "https://example.com/" },
    { kind: "reload" },
    { kind: "back" },
    { kind: "forward" },
    { kind: "close" },
    { kind: "dialog", accept: false },
    { kind: "wait", wait: { until: "text", text: "Done", timeout_ms: 30000 } },
  ];
  checkSteps(ok);
});

test("a step missing what its kind needs fails the batch invalid_params, naming the step", () => {
  const cases: [Step, RegExp][] = [
    [{ kind: "click" }, /step 0 \(click\) needs a ref/],
    [{ kind: "click", ref: "button1" }, /not a ref/],
    [{ kind: "type", ref: "e1" }, /needs text/],
    [{ kind: "press", keys: "Hyper+Q" }, /not a modifier/],
    [{ kind: "press" }, /needs keys/],
    [{ kind: "select", ref: "e1", values: [] }, /needs values/],
    [{ kind: "scroll" }, /ref to scroll into view, or delta/],
    [{ kind: "drag", ref: "e1" }, /needs to_ref/],
    [{ kind: "drag", ref: "e1", to_ref: "e0" }, /to_ref: "e0" is not a ref/],
    [{ kind: "click", ref: "e1", text: "x" }, /takes no text/],
    [{ kind: "press", keys: "Enter", values: ["a"] }, /takes no values/],
    [{ kind: "reload", ref: "e1" }, /takes no ref/],
    [{ kind: "click", ref: "e1", wait: { until: "load" } }, /takes no wait/],
    [{ kind: "dialog" }, /needs accept/],
    [{ kind: "wait" }, /needs wait/],
  ];
  for (const [step, message] of cases) {
    const f = refused(() => checkSteps([step]));
    assert.equal(f.detail.code, "invalid_params", JSON.stringify(step));
    assert.equal(f.detail.outcome, "not_started");
    assert.match(f.detail.message, message);
  }
  assert.match(refused(() => checkSteps([])).detail.message, /1 to 32 steps/);
  assert.match(refused(() => checkSteps(Array.from({ length: 33 }, () => ({ kind: "reload" as const })))).detail.message, /1 to 32 steps/);
  // A later bad step refuses the whole batch: nothing runs.
  assert.match(refused(() => checkSteps([{ kind: "reload" }, { kind: "click" }])).detail.message, /step 1/);
});

test("navigate targets follow the host's rules", () => {
  for (const good of ["https://example.com", "about:blank", "chrome://settings/", "VIEW-SOURCE:https://example.com"]) {
    assert.doesNotThrow(() => checkNavigateUrl(good, "s"), good);
  }
  for (const bad of ["", "example.com", "javascript:alert(1)", "data:text/html,x", "blob:https://a/x", "ftp://a/", "view-source:", "view-source:/etc/passwd", "view-source:javascript:1", "view-source:view-source:https://a/"]) {
    assert.equal(refused(() => checkNavigateUrl(bad, "s")).detail.code, "invalid_url", bad);
  }
});

test("a navigate step to view-source: of a local file is local_file_denied before anything runs; a plain local file is left to its step, which asks the host (issue 9)", () => {
  for (const local of ["file:///etc/passwd", "FILE:/etc/passwd", "file://localhost/etc/passwd", " fi\tle:///x", "file://server/share"]) {
    assert.doesNotThrow(() => checkNavigateUrl(local, "step 0 (navigate)"), local);
  }
  for (const local of ["view-source:file:///etc/passwd", "view-source: File:/x"]) {
    const f = refused(() => checkSteps([{ kind: "reload" }, { kind: "navigate", url: local }]));
    assert.deepEqual([f.detail.code, f.detail.outcome], ["local_file_denied", "not_started"], local);
    assert.match(f.detail.message, /^step 1 \(navigate\)/);
    assert.doesNotMatch(f.detail.message, /passwd/, "the path is not repeated");
  }
});

test("wait conditions: what each kind needs", () => {
  assert.equal(refused(() => checkWait({ until: "url" }, "c")).detail.code, "invalid_params");
  assert.equal(refused(() => checkWait({ until: "text", text: "" }, "c")).detail.code, "invalid_params");
  assert.deepEqual(checkWait({ until: "download" }, "c"), { timeoutMs: DefaultWaitMs, idleMs: DefaultIdleMs });
});

test("wait counts: omitted is the protocol's default, 0 and out of range are refused, as the host reads them (issue 9)", () => {
  for (const c of waitCounts.cases) {
    const condition = c.condition as WaitCondition;
    const what = JSON.stringify(condition);
    if (c.refused !== undefined) {
      const f = refused(() => checkWait(condition, "condition"));
      assert.deepEqual([f.detail.code, f.detail.outcome], ["invalid_params", "not_started"], what);
      assert.ok(f.detail.message.includes(c.refused), `${what}: ${f.detail.message}`);
      continue;
    }
    const limits = checkWait(condition, "condition");
    assert.equal(limits.timeoutMs, c.timeout_ms, what);
    if (c.idle_ms !== undefined) assert.equal(limits.idleMs, c.idle_ms, what);
  }
  // A wait step is checked by the same rule before its batch runs.
  assert.equal(refused(() => checkSteps([{ kind: "reload" }, { kind: "wait", wait: { until: "load", timeout_ms: 0 } }])).detail.message.startsWith("step 1 (wait): timeout_ms"), true);
});
