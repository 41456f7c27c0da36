import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExtActParams } from "../../protocol/generated";
import { act } from "../act/act";
import { open } from "../methods/open";
import type { FocusedField } from "../../shared/page-agent";
import type { FakeFrame } from "../../testing/page-kit";
import { at, servePage } from "../../testing/page-kit";
import { snapshot } from "./snapshot";
import { failure, kit, LOOK, OTHER } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { waitFor } from "./wait";
import { watchOwnership } from "../tabs/watch-ownership";


async function ownedTab(k: Kit, url: string): Promise<number> {
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url, placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  return tab.tab_id;
}

function actParams(tabId: number, actions: ExtActParams["actions"], expected = 1): ExtActParams {
  return { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: expected, actions };
}

function inputs(k: Kit): string[] {
  return k.fake.commands.filter((c) => c.method.startsWith("Input.")).map((c) => {
    const p = c.params as { type?: string; x?: number; y?: number };
    return `${c.method} ${p.type ?? ""} ${p.x ?? ""},${p.y ?? ""}`;
  });
}

function page(): FakeFrame {
  const child: FakeFrame = {
    id: "CHILD",
    loaderId: "L-child",
    url: "https://b.test/inner",
    box: { x: 100, y: 50 },
    agent: {
      snapshot: (req) => {
        assert.equal(req.nextId, 4, "the child takes ids after the top frame's");
        assert.equal(req.indent, "  ", "two spaces deeper than its iframe line");
        return { text: '  - button "Inner" [ref=e4]', truncated: false, nextId: 5, frames: [], title: "inner", url: "https://b.test/inner" };
      },
      knows: (ref) => ref === "e4",
      target: () => at(10, 20, { description: 'button "Inner"' }),
      hitTest: () => ({ ok: true }),
    },
  };
  return {
    id: "TOP",
    loaderId: "L1",
    url: "https://a.test/",
    children: [child],
    iframes: { e2: "CHILD" },
    agent: {
      snapshot: (req) => {
        assert.equal(req.nextId, 1);
        return {
          text: '- heading "Shop" [level=1] [ref=e1]\n- iframe [ref=e2]\n- button "Buy" [ref=e3]',
          truncated: false,
          nextId: 4,
          frames: [{ ref: "e2", line: 2 }],
          title: "Shop",
          url: "https://a.test/",
        };
      },
      knows: (ref) => ["e1", "e2", "e3"].includes(ref),
      target: () => at(60, 70),
      hitTest: () => ({ ok: true }),
    },
  };
}

test("a snapshot splices each child frame's text under its iframe line and reports the ref epoch", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  servePage(k.fake, page());
  const r = await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  assert.equal(r.text, '- heading "Shop" [level=1] [ref=e1]\n- iframe [ref=e2]\n  - button "Inner" [ref=e4]\n- button "Buy" [ref=e3]');
  assert.deepEqual({ url: r.url, title: r.title, revision: r.revision, epoch: r.ref_epoch, truncated: r.truncated, total: r.total }, {
    url: "https://a.test/",
    title: "Shop",
    revision: 1,
    epoch: 1,
    truncated: false,
    total: r.text.length,
  });
  assert.equal(k.ctx.ownership.owner(tabId)?.tab.nextRef, 5);
  // Focus emulation is on before any input (notes/chromium.md Trap 1).
  assert.ok(k.fake.commands.some((c) => c.method === "Emulation.setFocusEmulationEnabled"));
});

test("a click in a child frame goes to the tab at the frame's offset, after the target checks", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  servePage(k.fake, page());
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e4" }]));
  assert.deepEqual(r.steps, [{ index: 0, kind: "click", outcome: "dispatched", note: 'clicked button "Inner"', served_by: "debugger" }]);
  assert.deepEqual(inputs(k), [
    "Input.dispatchMouseEvent mouseMoved 110,70",
    "Input.dispatchMouseEvent mousePressed 110,70",
    "Input.dispatchMouseEvent mouseReleased 110,70",
  ]);
});

test("refs of a replaced document and refs no snapshot showed are stale_ref, with nothing dispatched", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const replace = servePage(k.fake, page());
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const unknown = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e9" }, { kind: "click", ref: "e1" }]));
  assert.equal(unknown.steps[0]?.error?.code, "stale_ref");
  assert.equal(unknown.steps[1]?.outcome, "not_started");
  replace({ ...page(), loaderId: "L2" });
  await k.fake.settle(); // Chrome's report of the new document arrives
  const gone = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e1" }]));
  assert.equal(gone.steps[0]?.error?.code, "stale_ref");
  assert.equal(gone.steps[0]?.outcome, "not_started");
  assert.deepEqual(inputs(k), []);
  // The new top document is a new ref epoch.
  assert.equal(k.ctx.ownership.owner(tabId)?.tab.refEpoch, 2);
});

test("a covered or moving target is refused before any input", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  top.agent.hitTest = () => ({ ok: false, covering: 'dialog "Cookies"' });
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const covered = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e3" }]));
  assert.equal(covered.steps[0]?.error?.code, "target_covered");
  assert.match(covered.steps[0]?.error?.message ?? "", /Cookies/);
  let x = 0;
  top.agent.target = () => at((x += 30), 70);
  const moving = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e3" }]));
  assert.equal(moving.steps[0]?.error?.code, "target_moving");
  // A hidden tab's two looks see the same box; the page agent reports the running animation (page/motion.ts).
  top.agent.target = () => at(60, 70, { moving: true });
  const animated = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e3" }]));
  assert.equal(animated.steps[0]?.error?.code, "target_moving");
  assert.equal(animated.steps[0]?.outcome, "not_started");
  assert.match(animated.steps[0]?.error?.message ?? "", /running animation/);
  assert.deepEqual(inputs(k), []);
});

test("typing into a sensitive field, a key aimed at it, or a choice in a sensitive select, is refused with nothing typed, chosen or focused", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  top.agent.target = () => at(60, 70, { sensitive: true, editable: true, description: 'textbox "Password"' });
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  for (const step of [
    { kind: "fill", ref: "e3", text: "hunter2" },
    { kind: "press", keys: "h", ref: "e3" },
    { kind: "select", ref: "e3", values: ["hunter2"] },
  ] satisfies ExtActParams["actions"]) {
    const r = await act(k.ctx, actParams(tabId, [step]));
    assert.equal(r.steps[0]?.error?.code, "sensitive_field", step.kind);
    assert.equal(r.steps[0]?.outcome, "not_started");
    assert.ok(!JSON.stringify(r).includes("hunter2"));
  }
  assert.deepEqual(inputs(k), []);
  const called = k.fake.commands.map((c) => (c.params as { arguments?: { value?: unknown }[] }).arguments?.[0]?.value);
  assert.ok(!called.includes("focus"), "the field was not focused");
  assert.ok(!called.includes("select"), "no option was chosen");
});

function keys(k: Kit): string[] {
  return k.fake.commands.filter((c) => c.method.startsWith("Input.")).map((c) => {
    const p = c.params as { type?: string; key?: string; text?: string };
    return `${c.method} ${p.type ?? ""} ${p.key ?? p.text ?? ""}`.trim();
  });
}

const PASSWORD_FOCUSED = { sensitive: true, description: 'textbox "Password"', sealed: false, frame: false };

test("no key or text goes out while a sensitive field in any frame has focus, and the batch stops", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  // Notes has focus already: fill sends its text at once.
  top.agent.keyTarget = () => ({ ...at(60, 70, { editable: true, description: 'textbox "Notes"' }), ready: { length: 0, value: "" } });
  const child = top.children?.[0];
  assert.ok(child);
  child.agent.focusedField = () => PASSWORD_FOCUSED;
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  for (const steps of [
    [{ kind: "press", keys: "C" }, { kind: "press", keys: "A" }],
    [{ kind: "press", keys: "Shift+C" }],
    [{ kind: "press", keys: "Control+V" }],
    [{ kind: "fill", ref: "e3", text: "CANARY" }],
  ] satisfies ExtActParams["actions"][]) {
    const r = await act(k.ctx, actParams(tabId, steps));
    assert.equal(r.steps[0]?.error?.code, "sensitive_field", JSON.stringify(steps));
    assert.equal(r.steps[0]?.outcome, "not_started");
    assert.match(r.steps[0]?.error?.message ?? "", /Password/);
    assert.ok(r.steps.slice(1).every((st) => st.outcome === "not_started" && st.error === undefined));
    assert.ok(!JSON.stringify(r).includes("CANARY"));
  }
  assert.deepEqual(keys(k), []);
});

test("focus moved onto a sensitive field by a keydown (a modifier's, or the key's own before its character goes in): the rest is refused and what went down is let up", async () => {
  for (const [chord, sent] of [
    ["Control+Shift+C", ["rawKeyDown Control", "keyUp Control"]],
    ["C", ["rawKeyDown C", "keyUp C"]],
  ] as const) {
    const k = kit();
    const tabId = await ownedTab(k, "https://a.test/");
    const top = page();
    // The page's keydown handler of Notes focuses the password field.
    top.agent.focusedField = () => (keys(k).length > 0 ? PASSWORD_FOCUSED : { sensitive: false, description: 'textbox "Notes"', sealed: false, frame: false });
    servePage(k.fake, top);
    await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
    const r = await act(k.ctx, actParams(tabId, [{ kind: "press", keys: chord }]));
    assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["sensitive_field", "dispatched"], chord);
    assert.deepEqual(keys(k), sent.map((e) => `Input.dispatchKeyEvent ${e}`), chord);
    assert.ok(!k.fake.commands.some((c) => "text" in (c.params as object)), `${chord}: no event carried the character`);
  }
});

test("text the page sent elsewhere as it went in (its beforeinput focused a password field) is reported sensitive_field, and the batch stops", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  top.agent.keyTarget = () => ({ ...at(60, 70, { editable: true, description: 'textbox "Notes"' }), ready: { length: 0, value: "" } });
  top.agent.keyValue = () => ({ length: 0, value: "" }); // the text never reached Notes
  const inserted = (): boolean => k.fake.commands.some((c) => c.method === "Input.insertText");
  top.agent.focusedField = () => (inserted() ? PASSWORD_FOCUSED : { sensitive: false, description: 'textbox "Notes"', sealed: false, frame: false });
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await act(k.ctx, actParams(tabId, [{ kind: "fill", ref: "e3", text: "CANARY" }, { kind: "press", keys: "Enter" }]));
  assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["sensitive_field", "dispatched"]);
  assert.match(r.steps[0]?.error?.message ?? "", /Password.*may have reached it/);
  assert.deepEqual([r.steps[1]?.outcome, r.steps[1]?.error], ["not_started", undefined]);
  assert.ok(!JSON.stringify(r).includes("CANARY"));
});

test("focus in a frame AgentTab cannot look into refuses keys: the frame owner's child frame is missing from the frames asked", async () => {
  for (const [what, child, refused] of [
    ["a child frame missing from the index (not attached yet, or its tree unreadable)", "UNSEEN", true],
    ["a child frame that was asked, with nothing sensitive focused", "CHILD", false],
    ["an object showing an image (no frame)", undefined, false],
  ] as const) {
    const k = kit();
    const tabId = await ownedTab(k, "https://a.test/");
    const top = page();
    // Focus is in a child frame: the parent's focused element is its <iframe>.
    top.agent.focusedField = () => ({ sensitive: false, description: 'iframe "Card"', sealed: false, frame: true });
    top.iframes = { e2: "CHILD", ...(child === undefined ? {} : { focusedElement: child }) };
    servePage(k.fake, top);
    await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
    const r = await act(k.ctx, actParams(tabId, [{ kind: "press", keys: "C" }, { kind: "press", keys: "A" }]));
    if (refused) {
      assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["sensitive_field", "not_started"], what);
      assert.match(r.steps[0]?.error?.message ?? "", /iframe "Card".*cannot look into/, what);
      assert.equal(r.steps[1]?.outcome, "not_started", what);
      assert.deepEqual(keys(k), [], what);
    } else {
      assert.equal(r.steps[0]?.error, undefined, what);
      assert.ok(keys(k).length > 0, what);
    }
  }
});

test("focus in a closed shadow root refuses keys when that tree holds a sensitive field, or a frame AgentTab did not ask", async () => {
  const input = (...attributes: string[]) => ({ localName: "input", attributes });
  for (const [rootType, node, refused] of [
    ["closed", input("type", "password"), true],
    ["closed", input("autocomplete", "one-time-code", "id", "code"), true],
    ["closed", { localName: "select", attributes: ["autocomplete", "cc-exp-month"] }, true],
    ["closed", input("type", "text", "name", "search"), false],
    ["open", input("type", "password"), false],
    ["closed", { localName: "iframe", frameId: "UNSEEN" }, true],
    ["closed", { localName: "iframe", frameId: "CHILD" }, false],
  ] as const) {
    const k = kit();
    const tabId = await ownedTab(k, "https://a.test/");
    const top = page();
    top.agent.focusedField = () => ({ sensitive: false, description: "sealed-field", sealed: true, frame: false });
    servePage(k.fake, top);
    const serve = k.fake.cdp;
    k.fake.cdp = (c) => {
      const p = c.params as { pierce?: boolean; backendNodeId?: number };
      if (c.method !== "DOM.describeNode" || p.pierce !== true) return serve(c);
      const root = { backendNodeId: 7, shadowRootType: rootType, children: [{ localName: "div", children: [node] }] };
      return { node: p.backendNodeId === 7 ? root : { localName: "sealed-field", shadowRoots: [{ backendNodeId: 7, shadowRootType: rootType }] } };
    };
    await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
    const r = await act(k.ctx, actParams(tabId, [{ kind: "press", keys: "C" }]));
    const what = `${rootType} ${JSON.stringify(node)}`;
    assert.equal(r.steps[0]?.error?.code, refused ? "sensitive_field" : undefined, what);
    assert.deepEqual(keys(k).length > 0, !refused, what);
  }
});

/** The arguments each frame's page agent got for name, by frame (TOP, CHILD). */
function calls(k: Kit, name: string): [string, unknown[]][] {
  return k.fake.commands
    .filter((c) => c.method === "Runtime.callFunctionOn" && (c.params as { arguments?: { value?: unknown }[] }).arguments?.[0]?.value === name)
    .map((c) => {
      const p = c.params as { executionContextId?: number; arguments?: { value?: unknown }[] };
      return [p.executionContextId === 1 ? "TOP" : "CHILD", (p.arguments?.[1]?.value as unknown[] | undefined) ?? []];
    });
}

/** What a frame answers when Notes has focus (nothing to refuse: no description). */
const NOTES: FocusedField = { sensitive: false, description: "", sealed: false, frame: false };

/** Notes, which has focus already: a type or fill step sends its keys at once. */
function notesFocused(top: FakeFrame, holds = ""): void {
  top.agent.keyTarget = () => ({ ...at(60, 70, { editable: true, description: 'textbox "Notes"' }), ready: { length: holds.length, value: holds } });
}

test("type sends each character as a key down carrying it and a key up, with Shift's bit for upper case; text no key types goes in as text; every frame's key gate is armed, then ended", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  notesFocused(top);
  top.agent.keyValue = () => ({ length: 4, value: "aB!é" });
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await act(k.ctx, actParams(tabId, [{ kind: "type", ref: "e3", text: "aB!é" }]));
  assert.deepEqual([r.steps[0]?.outcome, r.steps[0]?.note], ["confirmed", 'typed 4 characters into textbox "Notes"']);
  assert.deepEqual(keys(k), [
    "Input.dispatchKeyEvent keyDown a",
    "Input.dispatchKeyEvent keyUp a",
    "Input.dispatchKeyEvent keyDown B",
    "Input.dispatchKeyEvent keyUp B",
    "Input.dispatchKeyEvent keyDown !",
    "Input.dispatchKeyEvent keyUp !",
    "Input.insertText  é",
  ]);
  const sent = k.fake.commands.filter((c) => c.method === "Input.dispatchKeyEvent").map((c) => c.params as { text?: string; code?: string; modifiers?: number });
  assert.deepEqual(sent.map((e) => [e.text, e.code, e.modifiers]), [["a", "KeyA", 0], [undefined, "KeyA", 0], ["B", "KeyB", 8], [undefined, "KeyB", 8], ["!", "Digit1", 8], [undefined, "Digit1", 8]]);
  assert.deepEqual(calls(k, "armKeys"), [["TOP", ["e3"]], ["CHILD", [null]]]);
  assert.deepEqual(calls(k, "keysSeen"), [["TOP", [1, false]], ["TOP", [3, false]]], "the first key alone, then the rest (the text after them is read back after it)");
  assert.deepEqual(calls(k, "disarmKeys").map(([frame]) => frame).sort(), ["CHILD", "TOP"]);
});

test("type stops when the page moves focus off the field (focus_lost) or onto a sensitive field (sensitive_field), dispatched, with no key after the field's frame said so", async () => {
  for (const [what, focusedAfter, code] of [
    ["a key strayed to another field", undefined, "focus_lost"],
    ["focus went to a password field", PASSWORD_FOCUSED, "sensitive_field"],
  ] as const) {
    const k = kit();
    const tabId = await ownedTab(k, "https://a.test/");
    const top = page();
    notesFocused(top);
    const downs = (): number => keys(k).filter((e) => e.includes("keyDown")).length;
    // After its second key, the page moves focus: the gate stops the keys that follow.
    top.agent.keysSeen = () =>
      downs() < 2 ? { seen: true, onField: true, focused: NOTES } : { seen: false, onField: false, focused: focusedAfter ?? NOTES, strayed: 'textbox "Other"' };
    top.agent.focusedField = () => (downs() < 2 || focusedAfter === undefined ? NOTES : focusedAfter);
    servePage(k.fake, top);
    await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
    const r = await act(k.ctx, actParams(tabId, [{ kind: "type", ref: "e3", text: "abcdefghij" }, { kind: "press", keys: "Enter" }]));
    assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], [code, "dispatched"], what);
    if (code === "focus_lost") assert.match(r.steps[0]?.error?.message ?? "", /to textbox "Other" while it was typed into/, what);
    assert.ok(downs() < 10, `${what}: ${downs()} keys went out`);
    assert.equal(r.steps[1]?.outcome, "not_started", what);
    assert.equal(calls(k, "disarmKeys").length, 2, `${what}: the gates were ended`);
  }
});

test("a page whose window handler hides the key ups from the gate is typed into key by key, with a check before each key down and each character", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  notesFocused(top);
  top.agent.keyValue = () => ({ length: 3, value: "abc" });
  top.agent.keysSeen = () => ({ seen: false, onField: true, focused: NOTES });
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await act(k.ctx, actParams(tabId, [{ kind: "type", ref: "e3", text: "abc" }]));
  assert.equal(r.steps[0]?.outcome, "confirmed");
  assert.deepEqual(keys(k), ["Input.dispatchKeyEvent keyDown a", "Input.dispatchKeyEvent keyUp a", ...["b", "c"].flatMap((c) => [`Input.dispatchKeyEvent rawKeyDown ${c}`, `Input.dispatchKeyEvent char ${c}`, `Input.dispatchKeyEvent keyUp ${c}`])]);
});

test("fill reads the field back: a value the field formats is taken and said, one it does not take fails value_not_accepted with what it holds", async () => {
  for (const [text, holds, code, says] of [
    ["5551234567", "(555) 123-4567", undefined, 'which it formatted: it holds "(555) 123-4567"'],
    ["abcdef", "abc", "value_not_accepted", 'textbox "Notes" did not take the value: it holds "abc"'],
  ] as const) {
    const k = kit();
    const tabId = await ownedTab(k, "https://a.test/");
    const top = page();
    notesFocused(top);
    top.agent.keyValue = () => ({ length: holds.length, value: holds });
    servePage(k.fake, top);
    await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
    const r = await act(k.ctx, actParams(tabId, [{ kind: "fill", ref: "e3", text }]));
    assert.equal(r.steps[0]?.error?.code, code, text);
    assert.equal(r.steps[0]?.outcome, code === undefined ? "confirmed" : "dispatched", text);
    assert.ok((code === undefined ? r.steps[0]?.note : r.steps[0]?.error?.message)?.includes(says), `${text}: ${JSON.stringify(r.steps[0])}`);
  }
});

test("fill of a picker field sets its value in the page, with no key; a value it does not take fails value_not_accepted, naming its format", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  top.agent.keyTarget = () => ({ ...at(60, 70, { editable: true, description: 'textbox "Day"' }), picker: "date" });
  top.agent.pickValue = (_ref, value) => (value === "2010-05-20" ? { done: "set", held: { length: 10, value } } : { done: "not_accepted", held: { length: 0, value: "" }, became: "" });
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await act(k.ctx, actParams(tabId, [{ kind: "fill", ref: "e3", text: "2010-05-20" }, { kind: "fill", ref: "e3", text: "05/20/2010" }]));
  assert.deepEqual(r.steps.map((st) => st.outcome), ["confirmed", "dispatched"]);
  assert.equal(r.steps[1]?.error?.code, "value_not_accepted");
  assert.match(r.steps[1]?.error?.message ?? "", /a date field takes yyyy-mm-dd \(2010-05-20\)\): it holds ""/);
  assert.deepEqual(inputs(k), [], "no key, no click");
});

test("a field nobody sees (an editor's hidden input) is focused in the page, never clicked", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  top.agent.keyTarget = () => ({ ...at(0, 0, { editable: true, description: 'textbox "Terminal input"' }), byFocus: true, multiline: true });
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await act(k.ctx, actParams(tabId, [{ kind: "type", ref: "e3", text: "ls\n" }]));
  assert.equal(r.steps[0]?.outcome, "dispatched");
  assert.match(r.steps[0]?.note ?? "", /an editor's hidden input/);
  assert.deepEqual(calls(k, "keyReady"), [["TOP", ["e3", "type", true]]]);
  assert.ok(!k.fake.commands.some((c) => c.method === "Input.dispatchMouseEvent"), "no pointer event");
  assert.deepEqual(keys(k).filter((e) => e.includes("keyDown")), ["Input.dispatchKeyEvent keyDown l", "Input.dispatchKeyEvent keyDown s", "Input.dispatchKeyEvent keyDown Enter"]);
});

test("a drag is refused before any input when a sensitive field receives the pointer where it presses or drops", async () => {
  const password = { sensitive: true, description: 'textbox "Password"', sealed: false, frame: false };
  const frameOwner = { sensitive: false, description: 'iframe "Card"', sealed: false, frame: true };
  // The source e1 is at (10, 10), the target e3 at (200, 100); the child frame's viewport starts at (100, 50).
  for (const [what, press, drop, child, refuses] of [
    ["the target is one", undefined, password, undefined, "drops no text into it"],
    ["the source is one", password, undefined, undefined, "drags no text out of it"],
    ["a frame's field is under the drop point", undefined, frameOwner, password, "drops no text into it"],
  ] as const) {
    const k = kit();
    const tabId = await ownedTab(k, "https://a.test/");
    const top = page();
    top.iframes = { e2: "CHILD", elementAt: "CHILD" };
    top.agent.target = (ref) => (ref === "e1" ? at(10, 10) : at(200, 100));
    top.agent.fieldAt = (x) => (x === 10 ? press : drop) ?? { sensitive: false, description: "region", sealed: false, frame: false };
    const inner = top.children?.[0];
    assert.ok(inner);
    const seen: number[][] = [];
    inner.agent.fieldAt = (x, y) => {
      seen.push([x, y]);
      return child ?? { sensitive: false, description: "", sealed: false, frame: false };
    };
    servePage(k.fake, top);
    await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
    const r = await act(k.ctx, actParams(tabId, [{ kind: "drag", ref: "e1", to_ref: "e3" }]));
    assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["sensitive_field", "not_started"], what);
    assert.match(r.steps[0]?.error?.message ?? "", new RegExp(`textbox "Password".*${refuses}`), what);
    assert.deepEqual(inputs(k), [], what);
    if (child !== undefined) assert.deepEqual(seen, [[100, 50]], "the child is asked in its own viewport's coordinates");
  }
});

test("a stale expected revision fails before any debugger call", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  servePage(k.fake, page());
  const f = await failure(act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e1" }], 7)));
  assert.equal(f.detail.code, "stale_revision");
  assert.equal(f.detail.outcome, "not_started");
  assert.ok(!k.fake.calls.some((c) => c.startsWith("debugger.")));
});

test("restricted pages refuse page work before any debugger call; tab-lifecycle steps still run", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "chrome://settings/");
  servePage(k.fake, page());
  const s = await failure(snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" }));
  assert.deepEqual([s.detail.code, s.detail.outcome], ["browser_restricted_origin", "not_started"]);
  const w = await failure(waitFor(k.ctx, "t1", tabId, { until: "text", text: "x" }));
  assert.equal(w.detail.code, "browser_restricted_origin");
  const r = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e1" }]));
  assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["browser_restricted_origin", "not_started"]);
  assert.ok(!k.fake.calls.some((c) => c.startsWith("debugger.")));
  const nav = await act(k.ctx, actParams(tabId, [{ kind: "navigate", url: "https://a.test/" }]));
  assert.deepEqual([nav.steps[0]?.outcome, nav.steps[0]?.navigation], ["confirmed", "committed"]);
  assert.ok(!k.fake.calls.some((c) => c.startsWith("debugger.")));
});

test("page work on a tab the task does not own is not_owned", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const f = await failure(snapshot(k.ctx, { task_id: OTHER.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" }));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["not_owned", "not_started"]);
  const g = await failure(act(k.ctx, { ...actParams(tabId, [{ kind: "reload" }]), task_id: OTHER.task_id }));
  assert.equal(g.detail.code, "not_owned");
});

test("finishing or revoking a tab detaches the debugger at once", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  servePage(k.fake, page());
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  assert.ok(k.fake.attachedTabs.has(tabId));
  watchOwnership(k.ctx, Promise.resolve());
  k.fake.userUngroup(tabId);
  await k.fake.settle();
  assert.ok(!k.fake.attachedTabs.has(tabId));
});

test("after Chrome refuses the debugger, it is tried again only after 30 s or the next navigation", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  servePage(k.fake, page());
  const snap = () => snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const attaches = () => k.fake.calls.filter((c) => c.startsWith("debugger.attach")).length;
  k.fake.failNext.set("debugger.attach", "Cannot access a chrome-extension:// URL of different extension");
  const first = await failure(snap());
  assert.deepEqual([first.detail.code, first.detail.outcome], ["debugger_unavailable", "not_started"]);
  const second = await failure(snap());
  assert.equal(second.detail.code, "debugger_unavailable");
  assert.equal(attaches(), 1, "the second call must not attach again (each attach flashes the banner)");
  // The tab navigates: the next call tries again, and Chrome now allows it.
  k.fake.navigate(tabId, "https://a.test/next", "commit");
  await k.fake.settle();
  await snap();
  assert.equal(attaches(), 2);
});

test("a click whose page navigates before the call that follows it (Chrome: 'Inspected target navigated or closed') is dispatched, not a failure", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  let clicked = false;
  servePage(k.fake, {
    id: "TOP",
    loaderId: "L1",
    url: "https://a.test/",
    agent: {
      snapshot: () => ({ text: '- link "Next" [ref=e1]', truncated: false, nextId: 2, frames: [], title: "A", url: "https://a.test/" }),
      knows: (ref) => {
        if (clicked) throw new Error("Inspected target navigated or closed");
        return ref === "e1";
      },
      target: () => {
        return at(10, 20, { description: 'link "Next"' });
      },
      hitTest: () => {
        clicked = true;
        return { ok: true };
      },
    },
  });
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e1" }]));
  assert.deepEqual(r.steps.map((s) => [s.outcome, s.error?.code]), [["dispatched", undefined]]);
});

test("a page agent answer off its contract fails the step internal_error, naming the function, with nothing dispatched", async () => {
  const k = kit();
  const tabId = await ownedTab(k, "https://a.test/");
  const top = page();
  top.agent.target = () => at(Number.NaN, 70);
  servePage(k.fake, top);
  await snapshot(k.ctx, { task_id: "t1", tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e3" }, { kind: "click", ref: "e1" }]));
  assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], ["internal_error", "not_started"]);
  assert.match(r.steps[0]?.error?.message ?? "", /the page agent's aim answered off its contract: target\.x is not a number/);
  assert.deepEqual([r.steps[1]?.outcome, r.steps[1]?.error], ["not_started", undefined]);
  assert.deepEqual(inputs(k), []);
});
