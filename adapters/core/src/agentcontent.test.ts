import assert from "node:assert/strict";
import { test } from "node:test";

import { agentContent } from "./agentcontent";
import type { ToolResult } from "./types";

test("the model gets every block: text as is, images, a resource link as one line", () => {
  const r: ToolResult = {
    isError: false,
    content: [
      { type: "text", text: "tab: tab_1\n\n- button" },
      { type: "resource_link", uri: "agenttab://blob/1", name: "screenshot", mimeType: "image/png", size: 3 },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "resource_link", uri: "agenttab://blob/2", name: "screenshot" },
    ],
    structuredContent: {},
  };
  assert.deepEqual(agentContent(r), [
    { type: "text", text: "tab: tab_1\n\n- button" },
    { type: "text", text: "resource_link screenshot: agenttab://blob/1 (image/png, 3 bytes)" },
    { type: "image", data: "AAAA", mimeType: "image/png" },
    { type: "text", text: "resource_link screenshot: agenttab://blob/2" },
  ]);
});
