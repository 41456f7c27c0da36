import { test } from "node:test";
import assert from "node:assert/strict";
import type { ChallengeSighting } from "../../shared/page-agent";
import { kit, LOOK, ManualClock } from "../../testing/testkit";
import { finish } from "../methods/finish";
import { open } from "../methods/open";
import { watchOwnership } from "../tabs/watch-ownership";
import { Challenges } from "./challenges";

const TURNSTILE: ChallengeSighting = { vendor: "cloudflare", product: "turnstile", kind: "widget", interaction: "checkbox", confidence: "high", tokenPresent: false };
const URL = "https://shop.test/checkout?secret=1#x";

test("a challenge keeps its id while it stays, reports solved with a token, and is reported resolved once when it goes", () => {
  const clock = new ManualClock();
  const c = new Challenges(clock);
  const first = c.observe(1, URL, [TURNSTILE], "snapshot", 1, false);
  assert.equal(first?.state, "present");
  assert.equal(first?.origin, "https://shop.test", "origin only: no path or query");
  assert.match(first?.challenge_id ?? "", /^[0-9a-f]{32}$/);
  clock.advance(1500);
  const solved = c.observe(1, URL, [{ ...TURNSTILE, tokenPresent: true }], "act", 1, false);
  assert.deepEqual([solved?.state, solved?.challenge_id, solved?.elapsed_ms, solved?.token_present], ["solved", first?.challenge_id, 1500, true]);
  const gone = c.observe(1, URL, [], "snapshot", 1, false);
  assert.deepEqual([gone?.state, gone?.resolved_by, gone?.challenge_id], ["resolved", "observed", first?.challenge_id]);
  assert.equal(c.observe(1, URL, [], "snapshot", 1, false), undefined, "reported once");
});

// A human solving an interstitial reloads the page: the revision moves
// while the notice is open, and that is still the handoff's resolution.
test("resolved_by: handoff with an open notice, else navigation when the revision moved, else wait during a wait", () => {
  const c = new Challenges(new ManualClock());
  const by = (revision: number, notice: boolean, context: "snapshot" | "wait") => {
    c.observe(1, URL, [TURNSTILE], "snapshot", 1, false);
    return c.observe(1, URL, [], context, revision, notice)?.resolved_by;
  };
  assert.equal(by(2, true, "wait"), "handoff");
  assert.equal(by(2, true, "snapshot"), "handoff");
  assert.equal(by(1, true, "wait"), "handoff");
  assert.equal(by(2, false, "wait"), "navigation");
  assert.equal(by(1, false, "wait"), "wait");
  assert.equal(by(1, false, "snapshot"), "observed");
});

test("another vendor's challenge is a new one; a forgotten tab starts over", () => {
  const c = new Challenges(new ManualClock());
  const a = c.observe(1, URL, [TURNSTILE], "snapshot", 1, false);
  const b = c.observe(1, URL, [{ ...TURNSTILE, vendor: "google", product: "recaptcha_v2" }], "snapshot", 1, false);
  assert.notEqual(a?.challenge_id, b?.challenge_id);
  c.forget(1);
  assert.equal(c.observe(1, URL, [], "snapshot", 1, false), undefined);
});

// A challenge record is the task's: once the tab leaves the task (closed,
// revoked, or released at finish), nothing of it may reach whoever works
// in the tab next, not even a "resolved" report.
test("a tab that closes, leaves its task's group, or is released at finish forgets its challenge", async () => {
  const { fake, ctx } = kit();
  const win = fake.addWindow({ focused: true });
  watchOwnership(ctx, Promise.resolve());
  const openTab = async () => (await open(ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 })).tab.tab_id;
  const seen = (tabId: number) => ctx.challenges.observe(tabId, URL, [TURNSTILE], "snapshot", 1, false);
  const [closed, moved, finished] = [await openTab(), await openTab(), await openTab()];
  for (const tabId of [closed, moved, finished]) seen(tabId);

  fake.userClose(closed);
  fake.userMoveToGroup(moved, fake.addGroup(win, [fake.addTab(win, "https://user.example/")]));
  await fake.settle();
  assert.ok(!ctx.challenges.has(closed), "closed");
  assert.ok(!ctx.challenges.has(moved), "revoked");
  assert.ok(ctx.challenges.has(finished), "still owned");

  await finish(ctx, { task_id: "t1", close: [] });
  assert.ok(!ctx.challenges.has(finished), "released at finish");
  assert.equal(ctx.challenges.observe(finished, URL, [], "snapshot", 1, false), undefined, "no resolved report reaches the next owner");
});
