import { test } from "node:test";
import assert from "node:assert/strict";
import { CodeDebuggerUnavailable, RouteDebugger, RouteScripting } from "../../protocol/generated";
import { open } from "../methods/open";
import { failure as caught, kit, LOOK } from "../../testing/testkit";
import { failure } from "../native/failure";
import type { Kit } from "../../testing/testkit";
import { onRoute } from "./choose-route";
import type { PageRoute } from "./page-route";
import { routed } from "./page-route";

const REFUSED = "Cannot access a chrome-extension:// URL of different extension";

async function ownedTab(k: Kit, { refuse, granted }: { refuse: boolean; granted: boolean }): Promise<number> {
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  if (granted) await k.fake.permissions.request("scripting");
  if (refuse) k.fake.failNext.set("debugger.attach", REFUSED);
  return tab.tab_id;
}

/** The routes work ran on, in order. */
function recorder(): { routes: string[]; work: (route: PageRoute) => Promise<string> } {
  const routes: string[] = [];
  return {
    routes,
    work: async (route) => {
      routes.push(route.name);
      return route.name;
    },
  };
}

test("the debugger route serves a tab Chrome lets it attach to, whether or not scripting is granted", async () => {
  const k = kit();
  const tabId = await ownedTab(k, { refuse: false, granted: true });
  const r = recorder();
  assert.equal(await onRoute(k.ctx, tabId, r.work), RouteDebugger);
  assert.deepEqual(r.routes, [RouteDebugger]);
});

test("Chrome refusing the debugger hands the call to the scripting route when the user granted it", async () => {
  const k = kit();
  const tabId = await ownedTab(k, { refuse: true, granted: true });
  const r = recorder();
  assert.equal(await onRoute(k.ctx, tabId, r.work), RouteScripting);
  assert.deepEqual(r.routes, [RouteScripting], "work ran once, on the scripting route (the attach failed before it)");
});

test("a refusal that comes while the debugger route works (a snapshot's readFailure of Chrome taking it back) runs the work again on the scripting route, unless something was dispatched", async () => {
  for (const dispatched of [false, true]) {
    const k = kit();
    const tabId = await ownedTab(k, { refuse: false, granted: true });
    const routes: string[] = [];
    const work = async (route: PageRoute): Promise<string> => {
      routes.push(route.name);
      if (route.name === RouteDebugger) throw failure(CodeDebuggerUnavailable, "Detached while handling command.");
      return route.name;
    };
    const got = onRoute(k.ctx, tabId, work, () => !dispatched);
    if (dispatched) {
      const f = await caught(got);
      assert.equal(f.detail.code, "debugger_unavailable");
      assert.deepEqual(routes, [RouteDebugger], "input may have gone out: nothing runs again");
    } else {
      assert.equal(await got, RouteScripting);
      assert.deepEqual(routes, [RouteDebugger, RouteScripting]);
    }
  }
});

test("without the scripting permission Chrome's refusal stands: debugger_unavailable, not_started, and no route ran the work", async () => {
  const k = kit();
  const tabId = await ownedTab(k, { refuse: true, granted: false });
  const r = recorder();
  const f = await caught(onRoute(k.ctx, tabId, r.work));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["debugger_unavailable", "not_started"]);
  assert.match(f.detail.message, /refused to attach/);
  assert.deepEqual(r.routes, []);
  assert.deepEqual(k.fake.mainWorldCalls, []);
});

test("a failure that is not Chrome refusing the debugger is not a cue for the scripting route", async () => {
  const k = kit();
  const tabId = await ownedTab(k, { refuse: false, granted: true });
  const routes: string[] = [];
  await assert.rejects(
    onRoute(k.ctx, tabId, async (route) => {
      routes.push(route.name);
      throw new Error("the page broke");
    }),
    /the page broke/,
  );
  assert.deepEqual(routes, [RouteDebugger]);
});

test("page steps have routes in protocol.StepRules; tab-lifecycle steps and waits do not", () => {
  assert.deepEqual([routed("click"), routed("hover"), routed("dialog"), routed("navigate"), routed("close"), routed("wait")], [true, true, true, false, false, false]);
});
