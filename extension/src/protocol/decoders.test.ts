// The generated decoders (internal/tsgen/decoders.go) on what the host
// sends: the wire transcripts' requests read back unchanged, and each way a
// message can miss its Go type is a DecodeError naming the value.
import { test } from "node:test";
import assert from "node:assert/strict";
import exchanges from "../../../internal/host/testdata/transcripts/native.json";
import type { ExtActParams, NativeMethod } from "./generated";
import { DecodeError, NativeMethodValues, NativeParamsDecoders, StepKindValues, decodeExtActParams, decodeNativeWelcome } from "./generated";

const GOOD_ACT: ExtActParams = {
  task_id: "t1",
  tab_id: 7,
  expected_page_revision: 3,
  actions: [
    { kind: "click", ref: "e1" },
    { kind: "select", ref: "e2", values: ["a", "b"] },
    { kind: "wait", wait: { until: "text", text: "Done", gone: true, timeout_ms: 2000 } },
    { kind: "dialog", accept: false, prompt_text: "" },
    { kind: "scroll", delta_x: -5, delta_y: 120 },
  ],
};

/** The DecodeError that decoding v throws. */
function refusal(decode: () => unknown): DecodeError {
  try {
    decode();
  } catch (e) {
    assert.ok(e instanceof DecodeError, `threw ${String(e)}`);
    return e;
  }
  assert.fail("decoded");
}

function isMethod(m: string): m is NativeMethod {
  return NativeMethodValues.some((x) => x === m);
}

test("every request of the wire transcripts decodes to what the host sent", () => {
  assert.ok(exchanges.length > 0);
  for (const x of exchanges) {
    const { method, params } = x.request;
    assert.ok(isMethod(method), `${x.transcript}: ${method} is no native method`);
    assert.deepEqual(NativeParamsDecoders[method](params), params, x.transcript);
  }
});

test("an act with nested steps and a wait decodes unchanged", () => {
  assert.deepEqual(decodeExtActParams(structuredClone(GOOD_ACT)), GOOD_ACT);
});

test("a wrong type names its path, however deep", () => {
  const kind = refusal(() => decodeExtActParams({ ...GOOD_ACT, actions: [{ kind: "click" }, { kind: 5 }] }));
  assert.equal(kind.path, "params.actions[1].kind");
  const wait = refusal(() => decodeExtActParams({ ...GOOD_ACT, actions: [{ kind: "wait", wait: { until: "load", timeout_ms: "5" } }] }));
  assert.equal(wait.path, "params.actions[0].wait.timeout_ms");
  assert.equal(wait.want, "an integer");
  assert.equal(wait.message, "params.actions[0].wait.timeout_ms must be an integer");
  assert.equal(refusal(() => decodeExtActParams({ ...GOOD_ACT, actions: [{ kind: "select", values: ["a", 1] }] })).path, "params.actions[0].values[1]");
  assert.equal(refusal(() => decodeExtActParams([])).message, "params must be an object");
});

test("a null list reads as [], as Go writes a nil slice", () => {
  assert.deepEqual(decodeExtActParams({ ...GOOD_ACT, actions: null }).actions, []);
  assert.deepEqual(NativeParamsDecoders.tabs({ task_id: "t", tab_ids: null }), { task_id: "t", tab_ids: [] });
  const look = { task_id: "t", label: "L", color: "blue" };
  assert.deepEqual(NativeParamsDecoders.reconcile({ tasks: [{ task: look, tabs: null }] }), { tasks: [{ task: look, tabs: [] }] });
});

test("a list Go always writes must be there: absent is not empty", () => {
  assert.equal(refusal(() => NativeParamsDecoders.tabs({ task_id: "t" })).message, "params.tab_ids must be a list");
});

test("an unknown enum value is refused with the values it may take", () => {
  const e = refusal(() => decodeExtActParams({ ...GOOD_ACT, actions: [{ kind: "tap" }] }));
  assert.equal(e.path, "params.actions[0].kind");
  assert.equal(e.want, `one of ${StepKindValues.map((k) => JSON.stringify(k)).join(", ")}`);
  assert.match(e.want, /"click", "double_click"/);
  assert.equal(refusal(() => NativeParamsDecoders.snapshot({ task_id: "t", tab_id: 1, mode: "", capture_chars: 1, screenshot: "none" })).path, "params.mode");
});

test("an absent or null optional field stays absent", () => {
  const got = decodeExtActParams({ ...GOOD_ACT, actions: [{ kind: "click", ref: null, wait: null, accept: undefined }] });
  assert.deepEqual(got.actions, [{ kind: "click" }]);
  const step = got.actions[0];
  assert.ok(step);
  for (const k of ["ref", "wait", "accept", "values", "delta_x"]) assert.equal(Object.hasOwn(step, k), false, k);
});

test("integers are safe integers", () => {
  for (const bad of [1.5, 2 ** 53, "7", null, Number.NaN]) {
    assert.equal(refusal(() => decodeExtActParams({ ...GOOD_ACT, tab_id: bad })).path, "params.tab_id", String(bad));
  }
  assert.equal(decodeExtActParams({ ...GOOD_ACT, expected_page_revision: 2 ** 53 - 1 }).expected_page_revision, 2 ** 53 - 1);
});

test("a method without params reads nothing of what was sent", () => {
  for (const m of ["ping", "pause", "unpause", "pausing"] as const) {
    assert.deepEqual(NativeParamsDecoders[m]({ x: 1 }), {});
    assert.deepEqual(NativeParamsDecoders[m](undefined), {});
  }
});

test("the welcome decodes with its type literal and both origin lists", () => {
  const welcome = {
    type: "welcome",
    protocol_version: 1,
    host_version: "1.0.0",
    origins: { allowed: [{ scheme: "https", host: "a.test", subdomains: true, port: 0 }], denied: [] },
    local_files: false,
  };
  assert.deepEqual(decodeNativeWelcome(structuredClone(welcome), "welcome"), welcome);
  assert.equal(refusal(() => decodeNativeWelcome({ ...welcome, type: "reject" }, "welcome")).message, `welcome.type must be "welcome"`);
  // A host of another build that leaves a list out is refused, not read as no constraint.
  assert.equal(refusal(() => decodeNativeWelcome({ ...welcome, origins: { denied: [] } }, "welcome")).message, "welcome.origins.allowed must be a list");
  assert.equal(refusal(() => decodeNativeWelcome({ ...welcome, origins: { allowed: [{ scheme: "https", host: "a.test", port: 0 }], denied: [] } }, "welcome")).path, "welcome.origins.allowed[0].subdomains");
});

// A small deterministic fuzz: each request of the transcripts, and the act
// above, with one value somewhere replaced. The decoders answer with a value
// or a DecodeError, never another exception.
test("a damaged message is a value or a DecodeError, never another throw", () => {
  let seed = 1;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const junk: unknown[] = [null, undefined, 0, -1, 1.5, 2 ** 60, "", "x", "click", true, [], [1], {}, { kind: "wait" }];
  const samples: [NativeMethod, unknown][] = exchanges.flatMap((x) => (isMethod(x.request.method) ? [[x.request.method, x.request.params] as [NativeMethod, unknown]] : []));
  samples.push(["act", GOOD_ACT]);
  for (let round = 0; round < 2000; round++) {
    const sample = samples[next(samples.length)];
    assert.ok(sample);
    const [method, params] = sample;
    const damaged = damage(structuredClone(params), junk[next(junk.length)], next);
    try {
      NativeParamsDecoders[method](damaged);
    } catch (e) {
      assert.ok(e instanceof DecodeError, `${method} ${JSON.stringify(damaged)}: ${String(e)}`);
    }
  }
});

/** v with one value at a random depth replaced by with. */
function damage(v: unknown, with_: unknown, next: (n: number) => number): unknown {
  if (typeof v !== "object" || v === null || next(3) === 0) return with_;
  const o: Record<string, unknown> = Array.isArray(v) ? Object.fromEntries(v.entries()) : Object.fromEntries(Object.entries(v));
  const keys = Object.keys(o);
  const key = keys[next(keys.length + 1)];
  if (key === undefined) return with_;
  o[key] = damage(o[key], with_, next);
  return Array.isArray(v) ? Object.values(o) : o;
}
