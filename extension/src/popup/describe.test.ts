import { test } from "node:test";
import assert from "node:assert/strict";
import { describeHost, tabCount } from "./describe";

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
