import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExtActParams, ExtCommitParams, Step } from "../../protocol/generated";
import type { ChallengeSighting, EffectReport } from "../../shared/page-agent";
import { open } from "../methods/open";
import { snapshot } from "../pagework/snapshot";
import { hmacHex, sha256Hex } from "../random";
import { commitStage } from "../review/commit";
import { at, servePage } from "../../testing/page-kit";
import type { FakeFrame } from "../../testing/page-kit";
import { failure, kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { act } from "./act";

// Issue 12: Commit review stops a batch at a recognised effect (YOLO mode
// off), browser_commit runs exactly that step after rechecking it, and the
// act guard refuses input to a recognised bot challenge.

const SEND = "button|Send|form post /mail|text,email";


interface Page {
  frame: FakeFrame;
  calls: string[];
  descriptor: string;
  /** The To field's value in the Send form's preview. */
  to: string;
  challenged: Set<string>;
  sightings: ChallengeSighting[];
}

function page(): Page {
  const p: Page = { calls: [], descriptor: SEND, to: "bob@b.test", challenged: new Set(), sightings: [], frame: { id: "TOP", loaderId: "L1", url: "https://a.test/", agent: {} } };
  p.frame.agent = {
    snapshot: () => ({ text: '- button "Send" [ref=e1]\n- button "Other" [ref=e2]', truncated: false, nextId: 3, frames: [], title: "A", url: "https://a.test/" }),
    knows: (ref) => ref === "e1" || ref === "e2",
    target: () => at(60, 70, { description: 'button "Send"' }),
    hitTest: () => ({ ok: true }),
    effect: (ref, press): EffectReport => {
      p.calls.push(`effect ${ref} ${String(press)}`);
      return ref === "e1"
        ? {
            effect: "send",
            rule: "send.name",
            descriptor: p.descriptor,
            preview: {
              control: "Send",
              fields: [
                { label: "To", value: p.to, sensitive: false },
                { label: "PIN", value: "1234", sensitive: true },
              ],
            },
          }
        : { effect: null, rule: null, descriptor: `other ${ref}`, preview: { control: "Other", fields: [] } };
    },
    inChallenge: (ref) => {
      p.calls.push(`inChallenge ${ref}`);
      return p.challenged.has(ref);
    },
    challenges: () => p.sightings,
  };
  return p;
}

async function ownedTab(k: Kit, ctx: Kit["ctx"], p: Page): Promise<number> {
  servePage(k.fake, p.frame);
  k.fake.addWindow({ focused: true });
  const { tab } = await open(ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  await snapshot(ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  return tab.tab_id;
}

function batch(tabId: number, actions: Step[], actionableMs?: number): ExtActParams {
  const p: ExtActParams = { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: 1, actions };
  if (actionableMs !== undefined) p.actionable_timeout_ms = actionableMs;
  return p;
}

function presses(k: Kit): number {
  return k.fake.commands.filter((c) => c.method === "Input.dispatchMouseEvent" && (c.params as { type?: string }).type === "mousePressed").length;
}

test("with YOLO mode off a recognised effect stages: nothing is clicked, the batch stops there, the preview is stored with Chrome's origin", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  const tabId = await ownedTab(k, ctx, p);
  await ctx.reviews.setYolo(false);
  const r = await act(ctx, batch(tabId, [{ kind: "click", ref: "e2" }, { kind: "click", ref: "e1" }, { kind: "click", ref: "e2" }]));
  assert.deepEqual(
    r.steps.map((s) => [s.outcome, s.error?.code]),
    [
      ["dispatched", undefined],
      ["staged", undefined],
      ["not_started", undefined],
    ],
  );
  assert.equal(presses(k), 1, "only the step before the stage clicked");
  const staged = r.staged;
  assert.ok(staged !== undefined);
  assert.equal(staged.step, 1);
  assert.equal(staged.effect, "send");
  assert.match(staged.review_handle, /^[0-9a-f]{64}$/);
  // Keyed by the review handle: state.db's copy lets no one guess-check a descriptor or a form value.
  assert.equal(staged.fingerprint, await hmacHex(staged.review_handle, SEND));
  assert.notEqual(staged.fingerprint, await sha256Hex(SEND));
  assert.match(staged.preview_digest, /^[0-9a-f]{64}$/);
  assert.ok(!JSON.stringify(r).includes("bob@b.test"), "the preview stays in the extension");
  const entry = ctx.reviews.get(staged.review_handle);
  assert.deepEqual(
    [entry?.taskId, entry?.tabId, entry?.origin, entry?.control, entry?.state, entry?.fields],
    [
      LOOK.task_id,
      tabId,
      "https://a.test",
      "Send",
      "pending",
      [
        { label: "To", value: "bob@b.test", sensitive: false },
        { label: "PIN", value: "", sensitive: true },
      ],
    ],
  );
  const preview = { effect: "send", control: "Send", origin: "https://a.test", fields: entry?.fields };
  assert.equal(staged.preview_digest, await hmacHex(staged.review_handle, JSON.stringify(preview)));
});

test("a target not actionable yet is waited for within actionable_timeout_ms before it is staged, as its click would be; refused after the bound, saying how long it waited", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  const tabId = await ownedTab(k, ctx, p);
  await ctx.reviews.setYolo(false);
  let looks = 0;
  p.frame.agent.target = () => (++looks < 4 ? { ...at(60, 70), ok: false, reason: "hidden" } : at(60, 70, { description: 'button "Send"' }));
  const r = await act(ctx, batch(tabId, [{ kind: "click", ref: "e1" }], 2000));
  assert.deepEqual([r.steps[0]?.outcome, r.staged?.effect], ["staged", "send"], JSON.stringify(r.steps[0]));
  assert.equal(looks, 4);
  assert.ok((r.steps[0]?.waited_ms ?? 0) > 0, "the receipt says it waited");

  p.frame.agent.target = () => ({ ...at(60, 70), ok: false, reason: "disabled" });
  const late = await act(ctx, batch(tabId, [{ kind: "click", ref: "e1" }, { kind: "click", ref: "e2" }], 150));
  assert.deepEqual(
    late.steps.map((s) => [s.outcome, s.error?.code]),
    [
      ["not_started", "target_not_actionable"],
      ["not_started", undefined],
    ],
  );
  assert.match(late.steps[0]?.error?.message ?? "", /after waiting \d+ ms/);
  assert.ok((late.steps[0]?.waited_ms ?? 0) >= 150, JSON.stringify(late.steps[0]));
  assert.equal(late.staged, undefined);

  looks = 0;
  p.frame.agent.target = () => (looks++, { ...at(0, 0), ok: false, reason: "detached" });
  const gone = await act(ctx, batch(tabId, [{ kind: "click", ref: "e1" }], 2000));
  assert.deepEqual([gone.steps[0]?.error?.code, gone.steps[0]?.waited_ms, looks], ["target_not_actionable", undefined, 1], "a target gone from the page is refused at once");
  assert.equal(presses(k), 0);
});

test("with YOLO mode on (the default) the classifier is not asked and the click runs", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  const tabId = await ownedTab(k, ctx, p);
  const r = await act(ctx, batch(tabId, [{ kind: "click", ref: "e1" }]));
  assert.equal(r.steps[0]?.outcome, "dispatched");
  assert.equal(r.staged, undefined);
  assert.deepEqual(p.calls, ["inChallenge e1"]);
  assert.equal(presses(k), 1);
});

test("press steps are classified with Enter or Space only", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  const tabId = await ownedTab(k, ctx, p);
  await ctx.reviews.setYolo(false);
  const r = await act(ctx, batch(tabId, [{ kind: "press", ref: "e2", keys: "a" }, { kind: "press", ref: "e1", keys: "Control+Enter" }]));
  assert.deepEqual(
    r.steps.map((s) => s.outcome),
    ["dispatched", "staged"],
  );
  assert.deepEqual(
    p.calls.filter((c) => c.startsWith("effect")),
    ["effect e1 Control+Enter"],
  );
});

/** The host's commit request: it names the stage's review handle by its digest only. */
async function commitParams(tabId: number, handle: string, fingerprint: string, revision = 1, step: Step = { kind: "click", ref: "e1" }): Promise<ExtCommitParams> {
  return { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: revision, step, review_handle_digest: await sha256Hex(handle), effect: "send", fingerprint };
}

function keys(k: Kit): number {
  return k.fake.commands.filter((c) => c.method === "Input.dispatchKeyEvent").length;
}

test("a press without a ref is classified against the focused element, in whichever frame holds focus; its commit presses it", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  const child: string[] = [];
  p.frame.children = [
    {
      id: "CHILD",
      loaderId: "L2",
      url: "https://a.test/chat",
      agent: {
        effect: (ref, press): EffectReport => {
          child.push(`effect ${String(ref)} ${String(press)}`);
          return { effect: "send", rule: "send.name", descriptor: "focused Send", preview: { control: "Send", fields: [{ label: "Message", value: "hi", sensitive: false }] } };
        },
      },
    },
  ];
  const tabId = await ownedTab(k, ctx, p);
  await ctx.reviews.setYolo(false);
  const r = await act(ctx, batch(tabId, [{ kind: "press", keys: "Enter" }, { kind: "click", ref: "e2" }]));
  assert.deepEqual(
    r.steps.map((x) => x.outcome),
    ["staged", "not_started"],
  );
  assert.deepEqual([asked(p), child], [["effect null Enter"], ["effect null Enter"]], "every frame answers for its own focus");
  assert.equal(keys(k), 0, "no key went out");
  const s = r.staged;
  assert.ok(s !== undefined);
  assert.equal(ctx.reviews.get(s.review_handle)?.fields[0]?.value, "hi");
  await ctx.reviews.markReviewed(s.review_handle, true);
  const done = await commitStage(ctx, await commitParams(tabId, s.review_handle, s.fingerprint, 1, { kind: "press", keys: "Enter" }));
  assert.equal(done.steps[0]?.outcome, "dispatched", JSON.stringify(done.steps[0]));
  assert.ok(keys(k) > 0, "the commit pressed Enter");
});

test("a type step whose text holds a line break is classified like press Enter on its ref, in a multiline field only; the preview shows the text; a select is not classified", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  let multiline = true;
  p.frame.agent.keyTarget = () => ({ ...at(60, 70, { description: 'textbox "Message"' }), ...(multiline ? { multiline: true } : {}) });
  const tabId = await ownedTab(k, ctx, p);
  await ctx.reviews.setYolo(false);
  const r = await act(ctx, batch(tabId, [{ kind: "type", ref: "e1", text: "lunch?\n" }]));
  assert.deepEqual([r.steps[0]?.outcome, r.staged?.effect], ["staged", "send"]);
  assert.deepEqual(asked(p), ["effect e1 Enter"]);
  assert.equal(keys(k), 0, "nothing was typed");
  const fields = ctx.reviews.get(r.staged?.review_handle ?? "")?.fields ?? [];
  assert.equal(fields[fields.length - 1]?.value, "lunch?\n", "the human sees what the Enter sends");

  // Into a one-line field the break goes in as text, no Enter: typed, not asked about.
  multiline = false;
  await notAsked(ctx, p, tabId, { kind: "type", ref: "e1", text: "a\nb" });
  // Nor is a type step without a line break, or a select (its combobox or listbox is never a command the rules recognise).
  multiline = true;
  await notAsked(ctx, p, tabId, { kind: "type", ref: "e1", text: "plain" });
  await notAsked(ctx, p, tabId, { kind: "select", ref: "e1", values: ["a"] });
});

/** The classifier's calls so far. */
function asked(p: Page): string[] {
  return p.calls.filter((c) => c.startsWith("effect"));
}

/** Runs step with YOLO mode off (as the caller set it): it must be neither staged nor asked about. */
async function notAsked(ctx: Kit["ctx"], p: Page, tabId: number, step: Step): Promise<void> {
  p.calls.length = 0;
  const r = await act(ctx, batch(tabId, [step]));
  assert.notEqual(r.steps[0]?.outcome, "staged", JSON.stringify(step));
  assert.deepEqual(asked(p), [], JSON.stringify(step));
}

test("commit runs the staged step once, rechecked but not classified again; a dropped handle, a moved revision or a changed target refuse it", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  const tabId = await ownedTab(k, ctx, p);
  await ctx.reviews.setYolo(false);
  const stage = async () => {
    const s = (await act(ctx, batch(tabId, [{ kind: "click", ref: "e1" }]))).staged;
    assert.ok(s !== undefined);
    await ctx.reviews.markReviewed(s.review_handle, true);
    return s;
  };
  const s = await stage();
  const done = await commitStage(ctx, await commitParams(tabId, s.review_handle, s.fingerprint));
  assert.deepEqual(
    done.steps.map((x) => [x.index, x.outcome]),
    [[0, "dispatched"]],
  );
  assert.equal(done.staged, undefined, "YOLO off, but a commit never stages again");
  assert.equal(presses(k), 1);
  assert.equal(ctx.reviews.has(s.review_handle), false, "the popup entry goes");
  assert.equal((await failure(commitStage(ctx, await commitParams(tabId, s.review_handle, s.fingerprint)))).detail.code, "stage_discarded");

  const stale = await stage();
  const f = await failure(commitStage(ctx, await commitParams(tabId, stale.review_handle, stale.fingerprint, 0)));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["stage_stale", "not_started"]);
  assert.equal(ctx.reviews.has(stale.review_handle), false, "the host consumed it: its entry goes too");

  const moved = await stage();
  p.descriptor = "button|Send|form post /other";
  const changed = await commitStage(ctx, await commitParams(tabId, moved.review_handle, moved.fingerprint));
  assert.deepEqual([changed.steps[0]?.outcome, changed.steps[0]?.error?.code], ["not_started", "stage_target_changed"]);
  assert.equal(presses(k), 1, "nothing more was clicked");

  p.descriptor = SEND;
  const dropped = await stage();
  await ctx.reviews.setYolo(true);
  assert.equal((await failure(commitStage(ctx, await commitParams(tabId, dropped.review_handle, dropped.fingerprint)))).detail.code, "stage_discarded");
});

test("commit refuses stage_target_changed, not_started, when a field was filled after approval, or the page removed or replaced the staged element", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  const tabId = await ownedTab(k, ctx, p);
  await ctx.reviews.setYolo(false);
  const approved = async () => {
    const staged = (await act(ctx, batch(tabId, [{ kind: "click", ref: "e1" }]))).staged;
    assert.ok(staged !== undefined);
    await ctx.reviews.markReviewed(staged.review_handle, true);
    return staged;
  };
  // Same control, same descriptor: only what it would send changed (the preview the human approved).
  const filled = await approved();
  p.to = "eve@evil.test";
  const refilled = await commitStage(ctx, await commitParams(tabId, filled.review_handle, filled.fingerprint));
  assert.deepEqual([refilled.steps[0]?.outcome, refilled.steps[0]?.error?.code], ["not_started", "stage_target_changed"]);
  assert.equal(ctx.reviews.has(filled.review_handle), false);

  const s = await approved();
  p.frame.agent.target = () => ({ ...at(0, 0), ok: false, reason: "detached" });
  p.frame.agent.effect = () => {
    throw new Error("the ref does not resolve in this document");
  };
  const r = await commitStage(ctx, await commitParams(tabId, s.review_handle, s.fingerprint));
  assert.deepEqual([r.steps[0]?.outcome, r.steps[0]?.error?.code], ["not_started", "stage_target_changed"]);
  assert.equal(presses(k), 0);
});

const TURNSTILE: ChallengeSighting = { vendor: "cloudflare", product: "turnstile", kind: "widget", interaction: "checkbox", confidence: "high", tokenPresent: false };

test("the act guard refuses input to a challenge, not_started, before Commit review; results carry the challenge member", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  p.sightings = [TURNSTILE];
  const tabId = await ownedTab(k, ctx, p);
  await ctx.reviews.setYolo(false);
  p.challenged.add("e1");
  const r = await act(ctx, batch(tabId, [{ kind: "click", ref: "e1" }, { kind: "click", ref: "e2" }]));
  assert.deepEqual(
    r.steps.map((s) => [s.outcome, s.error?.code]),
    [
      ["not_started", "challenge_present"],
      ["not_started", undefined],
    ],
  );
  assert.equal(presses(k), 0);
  assert.equal(r.staged, undefined);
  assert.ok(!p.calls.some((c) => c.startsWith("effect")), "not classified");
  assert.deepEqual([r.challenge?.vendor, r.challenge?.state, r.challenge?.origin], ["cloudflare", "present", "https://a.test"]);
  const snap = await snapshot(ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  assert.equal(snap.challenge?.challenge_id, r.challenge?.challenge_id, "the same challenge while it stays");
  p.sightings = [];
  const gone = await snapshot(ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  assert.deepEqual([gone.challenge?.state, gone.challenge?.resolved_by], ["resolved", "observed"]);
});

test("the scripting route stages too", async () => {
  const k = kit();
  const ctx = k.ctx;
  const p = page();
  const calls: string[] = [];
  k.fake.addWindow({ focused: true });
  const { tab } = await open(ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  await k.fake.permissions.request("scripting");
  k.fake.scriptedAgent = (name, args) => {
    calls.push(name);
    const fn = (p.frame.agent as Record<string, ((...a: unknown[]) => unknown) | undefined>)[name];
    if (fn === undefined) throw new Error(`no ${name}`);
    return fn(...args);
  };
  k.fake.failNext.set("debugger.attach", "Cannot access a chrome-extension:// URL of different extension");
  await snapshot(ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  await ctx.reviews.setYolo(false);
  const r = await act(ctx, batch(tab.tab_id, [{ kind: "click", ref: "e1" }]));
  assert.deepEqual([r.steps[0]?.outcome, r.steps[0]?.served_by, r.staged?.effect], ["staged", "scripting", "send"]);
  assert.ok(!calls.includes("domClick"));
});
