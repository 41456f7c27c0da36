import { test } from "node:test";
import assert from "node:assert/strict";
import { FakeChrome } from "../../testing/fake-chrome";
import type { FakeCommand } from "../../testing/fake-chrome";
import { ManualClock } from "../../testing/testkit";
import { PAGE_AGENT_WORLD } from "../../shared/page-agent";
import { Debuggers } from "./debuggers";
import type { FrameEntry } from "./frames";
import { preinstall, Worlds } from "./agent";

const SOURCE = "/* the page agent */";
const quiet = { info: () => undefined, warn: () => undefined };
const TOP: FrameEntry = { doc: { frameId: "TOP", loaderId: "L1" }, url: "https://a.test/", sessionId: undefined, parent: undefined };

/** An attached tab whose page agent is installed once Runtime.evaluate brings it (or at once, preinstalled). */
async function attachedTab(preinstalled: boolean): Promise<{ fake: FakeChrome; debuggers: Debuggers; tabId: number; sent: (method: string) => FakeCommand[] }> {
  const fake = new FakeChrome();
  const tabId = fake.addTab(fake.addWindow(), "https://a.test/");
  const debuggers = new Debuggers(fake, new ManualClock(), quiet);
  debuggers.onSession((session, sessionId) => preinstall(session, sessionId, SOURCE));
  let installed = preinstalled;
  fake.cdp = (c) => {
    switch (c.method) {
      case "Page.createIsolatedWorld":
        return { executionContextId: 7 };
      case "Runtime.evaluate":
        installed = true;
        return { result: { type: "undefined" } };
      case "Runtime.callFunctionOn": {
        if ((c.params as Record<string, unknown>)["returnByValue"] === false) {
          if (!installed) return { result: { type: "object", subtype: "error" }, exceptionDetails: { text: "Uncaught", exception: { description: "Error: AgentTab's page agent is not installed\n    at <anonymous>" } } };
          return { result: { type: "object", objectId: "obj-1" } };
        }
        return { result: { type: "object", value: installed ? { value: true } : { missing: true } } };
      }
      default:
        return {};
    }
  };
  const sent = (method: string): FakeCommand[] => fake.commands.filter((c) => c.method === method);
  return { fake, debuggers, tabId, sent };
}

test("every attachment has Chrome evaluate the page agent in its world of each new document, and of the documents there now", async () => {
  const { debuggers, tabId, sent } = await attachedTab(true);
  await debuggers.use(tabId, async () => undefined);
  assert.deepEqual(
    sent("Page.addScriptToEvaluateOnNewDocument").map((c) => c.params),
    [{ source: SOURCE, worldName: PAGE_AGENT_WORLD, runImmediately: true }],
  );
});

test("a preinstalled agent is called at once: no evaluation of its source", async () => {
  const { debuggers, tabId, sent } = await attachedTab(true);
  const worlds = new Worlds(SOURCE);
  const known = await debuggers.use(tabId, (s) => worlds.agent(s, TOP).knows("e1"));
  assert.equal(known, true);
  assert.equal(sent("Runtime.evaluate").length, 0);
  assert.equal(sent("Runtime.callFunctionOn").length, 1);
});

test("an agent missing from its world (a document older than the attachment) is installed once and the call asked again", async () => {
  const { debuggers, tabId, sent } = await attachedTab(false);
  const worlds = new Worlds(SOURCE);
  await debuggers.use(tabId, async (s) => {
    assert.equal(await worlds.agent(s, TOP).knows("e1"), true);
    assert.equal(await worlds.elements(s, TOP).element("e1"), "obj-1");
  });
  assert.deepEqual(
    sent("Runtime.evaluate").map((c) => c.params),
    [{ expression: SOURCE, contextId: 7, returnByValue: true }],
  );
  assert.equal(sent("Page.createIsolatedWorld").length, 1, "the world is made once per document");
});

test("an element call that finds the agent missing installs it too", async () => {
  const { debuggers, tabId, sent } = await attachedTab(false);
  const worlds = new Worlds(SOURCE);
  assert.equal(await debuggers.use(tabId, (s) => worlds.elements(s, TOP).element("e1")), "obj-1");
  assert.equal(sent("Runtime.evaluate").length, 1);
});
