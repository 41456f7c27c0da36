import { test } from "node:test";
import assert from "node:assert/strict";
import { watchAutomation } from "./automation";
import { open } from "../methods/open";
import { servePage } from "../../testing/page-kit";
import { snapshot } from "../pagework/snapshot";
import { kit, LOOK } from "../../testing/testkit";

test("turning automation off (scripting removed) detaches every debugger session", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  watchAutomation(k.ctx);
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  servePage(k.fake, { id: "TOP", loaderId: "L1", url: "https://a.test/", agent: { snapshot: () => ({ text: '- button "Go" [ref=e1]', truncated: false, nextId: 2, frames: [], title: "a", url: "https://a.test/" }) } });
  await snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  assert.ok(k.fake.attachedTabs.has(tab.tab_id));

  await k.fake.permissions.request("scripting");
  await k.fake.permissions.remove("scripting");
  await k.fake.settle();
  assert.ok(!k.fake.attachedTabs.has(tab.tab_id), "the debugger is still attached after automation was turned off");
});
