// The native half of the wire transcripts (internal/host/testdata/
// transcripts/*.txtar; native.json is their generated copy, kept fresh by
// the host's TestTranscripts): every request the host sent there is one the
// extension's decoders accept and read back unchanged, every response is
// a frame the host reads, and the open the host sends is answered by the
// dispatcher, over the fake Chrome, with a response of the transcript's
// shape. A protocol change one side makes alone fails here or there.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { NativeRequest } from "../../protocol/generated";
import { NativeAct, NativeFinish, NativeOpen, NativeParamsDecoders, NativeSnapshot, NativeTabs, NativeWait } from "../../protocol/generated";
import exchanges from "../../../../internal/host/testdata/transcripts/native.json";
import { isFields } from "../fields";
import { dispatcher } from "./dispatch";
import { kit } from "../../testing/testkit";

/** The methods the transcripts were written for. */
const covered = [NativeOpen, NativeTabs, NativeSnapshot, NativeAct, NativeWait, NativeFinish];

function request(v: unknown): NativeRequest {
  assert.ok(isFields(v));
  const { type, id, method, params, class: cls } = v;
  assert.equal(type, "request");
  assert.equal(typeof id, "number");
  assert.equal(typeof method, "string");
  assert.ok(cls === "read" || cls === "mutation" || cls === "global", `class ${String(cls)}`);
  return { type, id: Number(id), method: String(method), params, class: cls };
}

test("the transcripts cover the native methods they were written for", () => {
  const methods = new Set(exchanges.map((x) => request(x.request).method));
  for (const m of covered) assert.ok(methods.has(m), `no transcript sends ${m}`);
});

for (const x of exchanges) {
  const req = request(x.request);
  test(`${x.transcript}: the extension reads the host's ${req.method} as sent`, () => {
    const decode = Object.entries(NativeParamsDecoders).find(([m]) => m === req.method)?.[1];
    assert.ok(decode, `no decoder for ${req.method}`);
    assert.deepEqual(decode(req.params), req.params);
  });

  test(`${x.transcript}: the ${req.method} response is one frame the host reads`, () => {
    const res: unknown = x.response;
    assert.ok(isFields(res));
    assert.equal(res["type"], "response");
    assert.equal(res["id"], req.id);
    const err = res["error"];
    assert.notEqual(res["result"] === undefined, err === undefined, "a result or an error, not both");
    if (err !== undefined) {
      assert.ok(isFields(err));
      for (const k of ["code", "message", "outcome", "recovery"]) assert.equal(typeof err[k], "string", `error.${k}`);
    }
  });
}

/** The shape of a JSON value: its keys, recursively, without the values. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
  if (isFields(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape(v[k])]));
  return typeof v;
}

test("open.txtar: the dispatcher answers the host's open with the transcript's shape", async () => {
  const x = exchanges.find((e) => e.transcript === "open.txtar");
  assert.ok(x);
  const k = kit();
  k.fake.addWindow({ focused: true });
  const res = await dispatcher(k.ctx, Promise.resolve())(request(x.request));
  assert.equal(res.error, undefined, JSON.stringify(res.error));
  assert.deepEqual(shape(res), shape(x.response));
});
