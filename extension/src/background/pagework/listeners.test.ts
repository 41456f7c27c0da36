import { test } from "node:test";
import assert from "node:assert/strict";
import type { Fields } from "../cdp/read";
import { pressTargets, reportListeners } from "./listeners";

const listener = (backendNodeId: number, type: string) => ({ type, useCapture: false, passive: false, once: false, scriptId: "1", lineNumber: 0, columnNumber: 0, backendNodeId });

test("press listeners count, other types and delegation roots do not", () => {
  const everyType = Array.from({ length: 25 }, (_, i) => listener(9, i === 0 ? "click" : `type${i}`));
  const found = [listener(1, "click"), listener(1, "mouseover"), listener(2, "scroll"), listener(3, "pointerdown"), { type: "click" }, ...everyType];
  assert.deepEqual(pressTargets(found), [1, 3]);
  assert.deepEqual(pressTargets(undefined), []);
});

/** A session that answers the scan's commands and records them. */
function scanSession(listeners: unknown[]) {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const send = async (method: string, params: object = {}): Promise<Fields> => {
    const p = params as Record<string, unknown>;
    sent.push({ method, params: p });
    switch (method) {
      case "Runtime.evaluate":
        return { result: { type: "object", objectId: p["contextId"] === undefined ? "main-doc" : "iso-doc" } };
      case "DOM.describeNode":
        return { node: { backendNodeId: 1 } };
      case "DOM.resolveNode":
        return { object: { objectId: p["executionContextId"] === undefined ? "main-doc" : `iso-${String(p["backendNodeId"])}` } };
      case "DOMDebugger.getEventListeners":
        return { listeners };
      case "Runtime.callFunctionOn":
      case "Runtime.releaseObjectGroup":
        return {};
      default:
        throw new Error(`unexpected ${method}`);
    }
  };
  return { sent, session: { send } };
}

test("the report: the top document's press listeners, their elements in AgentTab's world", async () => {
  const { sent, session } = scanSession([listener(5, "click"), listener(6, "keydown")]);
  await reportListeners(session, { sessionId: undefined, parent: undefined }, 7);
  assert.deepEqual(
    sent.map((s) => s.method),
    ["Runtime.evaluate", "DOMDebugger.getEventListeners", "DOM.resolveNode", "Runtime.callFunctionOn", "Runtime.releaseObjectGroup"],
  );
  // The main world's document (no context), the elements in world 7.
  assert.equal(sent[0]?.params["contextId"], undefined);
  assert.equal(sent[1]?.params["objectId"], "main-doc");
  assert.deepEqual(sent[2]?.params, { backendNodeId: 5, executionContextId: 7, objectGroup: "agenttab-listeners" });
  assert.equal(sent[3]?.params["executionContextId"], 7);
  assert.deepEqual(sent[3]?.params["arguments"], [{ objectId: "iso-5" }]);
});

test("a frame in its parent's process is scanned from the main world's object of its document", async () => {
  const { sent, session } = scanSession([]);
  await reportListeners(session, { sessionId: undefined, parent: { frameId: "top", sessionId: undefined } }, 4);
  assert.deepEqual(
    sent.map((s) => s.method),
    // No listeners: an empty report replaces the last one.
    ["Runtime.evaluate", "DOM.describeNode", "DOM.resolveNode", "DOMDebugger.getEventListeners", "Runtime.callFunctionOn", "Runtime.releaseObjectGroup"],
  );
  assert.equal(sent[0]?.params["contextId"], 4);
  assert.equal(sent[3]?.params["objectId"], "main-doc");
});

test("a document too large to scan reports none, replacing the last report; a failure is swallowed", async () => {
  const sent: string[] = [];
  await reportListeners(
    {
      send: async (method: string): Promise<Fields> => {
        sent.push(method);
        return method === "Runtime.evaluate" ? { result: { type: "object", subtype: "null", value: null } } : {};
      },
    },
    { sessionId: "s1", parent: { frameId: "top", sessionId: undefined } },
    3,
  );
  assert.deepEqual(sent, ["Runtime.evaluate", "Runtime.callFunctionOn", "Runtime.releaseObjectGroup"]);
  await reportListeners({ send: async () => Promise.reject(new Error("Detached while handling command")) }, { sessionId: undefined, parent: undefined }, 3);
});
