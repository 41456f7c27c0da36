import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExtCredentialFillParams, NativeResponse } from "../../protocol/generated";
import type { CredentialTarget } from "../../shared/page-agent";
import { open } from "../methods/open";
import { dispatcher } from "../native/dispatch";
import { originOf } from "./fill";
import { snapshot } from "../pagework/snapshot";
import type { FakeFrame } from "../../testing/page-kit";
import { servePage } from "../../testing/page-kit";
import { kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";

const CANARY = "CANARY-pw-7f3a9c";
const ORIGIN = "https://login.a.test";

const SNAPSHOT = { text: '- textbox "Email" [ref=e1]\n- textbox "Password" [sensitive] [ref=e2]\n- button "Sign in" [ref=e3]\n- iframe [ref=e4]', truncated: false, nextId: 5, frames: [{ ref: "e4", line: 4 }], title: "Sign in", url: `${ORIGIN}/login` };

/** A login page's agent: e1 a username field, e2 a password field, e3 a button; the fitness rule is page/credential.ts's, decided by the test per ref. focus: where focus is after the insert. */
function loginAgent(calls: string[], held: Map<string, string>, focus: { ref: string } = { ref: "e2" }): FakeFrame["agent"] {
  const fit: Record<string, string> = { e1: "username", e2: "password", e5: "password" };
  return {
    snapshot: () => SNAPSHOT,
    knows: (ref) => ["e1", "e2", "e3"].includes(ref),
    credentialTarget: (ref, field, value): CredentialTarget => {
      calls.push(`credentialTarget ${ref} ${field}`);
      if (fit[ref] !== field) return { fit: false, why: "a password goes only into a password input (type=password)", description: `textbox ${ref}`, focused: false };
      if (value !== null) held.set(ref, value);
      return { fit: true, description: `textbox ${ref}`, focused: true };
    },
    credentialHolds: (ref, value) => ({ holds: held.get(ref) === value, focused: focus.ref === ref }),
  };
}

/** A login page (loginAgent) with, under iframe e4, another origin's frame holding a password field e5. */
function loginPage(calls: string[], held: Map<string, string>, focus?: { ref: string }): FakeFrame {
  const widget = loginAgent(calls, held);
  const third: FakeFrame = {
    id: "THIRD",
    loaderId: "L-third",
    url: "https://widget.other.test/frame",
    agent: {
      ...widget,
      snapshot: () => ({ text: '  - textbox "Card PIN" [sensitive] [ref=e5]', truncated: false, nextId: 6, frames: [], title: "", url: "https://widget.other.test/frame" }),
      knows: (ref) => ref === "e5",
    },
  };
  return { id: "TOP", loaderId: "L1", url: `${ORIGIN}/login`, children: [third], iframes: { e4: "THIRD" }, agent: loginAgent(calls, held, focus) };
}

async function loginTab(k: Kit, calls: string[], held: Map<string, string>, focus?: { ref: string }): Promise<number> {
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: `${ORIGIN}/login`, placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  servePage(k.fake, loginPage(calls, held, focus));
  await snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  return tab.tab_id;
}

/** A worker with every log line kept, and an owned login tab snapshotted (its commands so far forgotten). */
async function loginSetup(focus?: { ref: string }): Promise<{ k: Kit; lines: string[]; calls: string[]; held: Map<string, string>; tabId: number }> {
  const k = kit();
  const lines = logLines(k);
  const calls: string[] = [];
  const held = new Map<string, string>();
  const tabId = await loginTab(k, calls, held, focus);
  k.fake.commands.length = 0;
  return { k, lines, calls, held, tabId };
}

/** Every log line of the worker, info too (kit keeps only warnings). */
function logLines(k: Kit): string[] {
  const lines: string[] = [];
  const { info, warn } = k.ctx.log;
  k.ctx.log.info = (m) => {
    lines.push(m);
    info(m);
  };
  k.ctx.log.warn = (m) => {
    lines.push(m);
    warn(m);
  };
  return lines;
}

function params(tabId: number, over: Partial<ExtCredentialFillParams> = {}): ExtCredentialFillParams {
  return { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: 1, origin: ORIGIN, ref: "e2", field: "password", value: CANARY, ...over };
}

/** Sends credential_fill through the dispatcher, as the host does. */
async function fill(k: Kit, p: ExtCredentialFillParams): Promise<NativeResponse> {
  return dispatcher(k.ctx, Promise.resolve())({ type: "request", id: 7, method: "credential_fill", class: "mutation", params: p });
}

/** Everything the worker wrote or said, besides the page: logs, storage, the host's events. */
function everywhere(k: Kit, lines: string[], response: unknown): string {
  return JSON.stringify([lines, k.warnings, [...k.fake.storage], [...k.fake.localStorage], k.events, response]);
}

test("credential_fill writes the value with one Input.insertText into a fit field and answers filled, the value in no log, storage or answer", async () => {
  const { k, lines, calls, held, tabId } = await loginSetup();
  // Input.insertText lands in the focused field, as Chrome's does.
  const serve = k.fake.cdp;
  k.fake.cdp = (c) => {
    if (c.method === "Input.insertText") held.set("e2", String((c.params as { text?: unknown }).text));
    return serve(c);
  };
  const r = await fill(k, params(tabId));
  assert.deepEqual(r.result, { filled: true });
  assert.deepEqual(calls, ["credentialTarget e2 password"], "checked and readied without the value: the debugger inserts it");
  assert.deepEqual(
    k.fake.commands.filter((c) => c.method === "Input.insertText").map((c) => c.params),
    [{ text: CANARY }],
  );
  assert.ok(!everywhere(k, lines, r).includes(CANARY), "the value is in no log, storage write, event or answer");
});

test("credential_fill refuses a field unfit for the value, an origin other than the token's, and a stale revision, with nothing sent", async () => {
  const { k, lines, held, tabId } = await loginSetup();
  const cases: [Partial<ExtCredentialFillParams>, string][] = [
    [{ ref: "e1" }, "credential_field_unfit"],
    [{ ref: "e3", field: "username" }, "credential_field_unfit"],
    [{ origin: "https://login.a.test.evil.test" }, "credential_token_invalid"],
    [{ origin: "http://login.a.test" }, "credential_token_invalid"],
    [{ expected_page_revision: 2 }, "stale_revision"],
    [{ ref: "e9" }, "stale_ref"],
  ];
  for (const [over, code] of cases) {
    const r = await fill(k, params(tabId, over));
    assert.equal(r.error?.code, code, JSON.stringify(over));
    assert.equal(r.error?.outcome, "not_started", JSON.stringify(over));
    assert.ok(!everywhere(k, lines, r).includes(CANARY), `${JSON.stringify(over)}: the refusal does not echo the value`);
  }
  assert.deepEqual(k.fake.commands.filter((c) => c.method.startsWith("Input.")), [], "nothing was typed");
  assert.equal(held.size, 0);
});

test("credential_fill's unexpected failure (Chrome rejecting the insert) names neither the value in the answer nor in the log", async () => {
  const k = kit();
  const lines = logLines(k);
  const held = new Map<string, string>();
  const tabId = await loginTab(k, [], held);
  const serve = k.fake.cdp;
  k.fake.cdp = (c) => {
    if (c.method === "Input.insertText") throw new Error("Internal error");
    return serve(c);
  };
  const r = await fill(k, params(tabId));
  assert.equal(r.error?.code, "internal_error");
  assert.equal(r.error?.outcome, "unknown", "the text may have reached the page");
  assert.ok(!everywhere(k, lines, r).includes(CANARY));
});

test("credential_fill on the scripting route sets the value the DOM way in one page agent call", async () => {
  const k = kit();
  const lines = logLines(k);
  const calls: string[] = [];
  const held = new Map<string, string>();
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: `${ORIGIN}/login`, placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  await k.fake.permissions.request("scripting");
  const agent = loginAgent(calls, held);
  k.fake.scriptedAgent = (name, args) => {
    const [ref, second, third] = args.map(String);
    switch (name) {
      case "snapshot":
        return SNAPSHOT;
      case "knows":
        return agent.knows?.(ref ?? "");
      case "credentialTarget":
        return agent.credentialTarget?.(ref ?? "", second ?? "", args[2] === null ? null : (third ?? ""));
      case "credentialHolds":
        return agent.credentialHolds?.(ref ?? "", second ?? "");
      case "challenges":
        return [];
      default:
        throw new Error(`the test's page agent has no ${name}`);
    }
  };
  k.fake.failNext.set("debugger.attach", "Cannot access a chrome-extension:// URL of different extension");
  await snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  const r = await fill(k, params(tab.tab_id));
  assert.deepEqual(r.result, { filled: true });
  assert.deepEqual(calls, ["credentialTarget e2 password"]);
  assert.equal(held.get("e2"), CANARY);
  assert.ok(!everywhere(k, lines, r).includes(CANARY));
});

/** The fake Chrome's Input.insertText, landing in the field focus is on (ref), as Chrome's does. */
function insertInto(k: Kit, held: Map<string, string>, focus: { ref: string }): void {
  const serve = k.fake.cdp;
  k.fake.cdp = (c) => {
    if (c.method === "Input.insertText") held.set(focus.ref, String((c.params as { text?: unknown }).text));
    return serve(c);
  };
}

test("credential_fill refuses a field in a frame of another origin than the token's, with nothing sent", async () => {
  const { k, lines, calls, held, tabId } = await loginSetup();
  const r = await fill(k, params(tabId, { ref: "e5" }));
  assert.equal(r.error?.code, "credential_field_unfit");
  assert.equal(r.error?.outcome, "not_started");
  assert.match(r.error?.message ?? "", /frame of https:\/\/widget\.other\.test, not of the page's origin https:\/\/login\.a\.test/);
  assert.deepEqual(calls, [], "the frame's agent was not asked to ready its field");
  assert.deepEqual(k.fake.commands.filter((c) => c.method.startsWith("Input.")), [], "nothing was typed");
  assert.equal(held.size, 0);
  assert.ok(!everywhere(k, lines, r).includes(CANARY));
});

test("credential_fill whose field lost focus before the insert clears the field that had it, and says so without inviting a look", async () => {
  const focus = { ref: "e2" };
  const { k, lines, held, tabId } = await loginSetup(focus);
  insertInto(k, held, focus);
  // The page moves focus to the email field once the password field is readied.
  const serve = k.fake.cdp;
  k.fake.cdp = (c) => {
    if (c.method === "Input.insertText") focus.ref = "e1";
    const out = serve(c);
    if (c.method === "Input.dispatchKeyEvent" && (c.params as { key?: unknown }).key === "Backspace" && (c.params as { type?: unknown }).type === "rawKeyDown") held.delete(focus.ref);
    return out;
  };
  const r = await fill(k, params(tabId));
  assert.equal(r.error?.code, "value_not_accepted");
  assert.equal(r.error?.outcome, "unknown");
  assert.match(r.error?.message ?? "", /lost focus before the value went in; the field that had focus instead was cleared/);
  assert.doesNotMatch(r.error?.message ?? "", /check where/);
  assert.deepEqual(
    k.fake.commands.filter((c) => c.method === "Input.dispatchKeyEvent").map((c) => `${String((c.params as { type?: unknown }).type)} ${String((c.params as { key?: unknown }).key)} ${JSON.stringify((c.params as { commands?: unknown }).commands ?? [])}`),
    ['rawKeyDown a ["selectAll"]', "keyUp a []", "rawKeyDown Backspace []", "keyUp Backspace []"],
  );
  assert.equal(held.get("e1"), undefined, "the email field no longer holds the password");
  assert.ok(!everywhere(k, lines, r).includes(CANARY));
});

test("credential_fill whose focused field does not hold the value (the page reformatted it) clears nothing", async () => {
  const focus = { ref: "e2" };
  const { k, held, tabId } = await loginSetup(focus);
  const serve = k.fake.cdp;
  k.fake.cdp = (c) => {
    if (c.method === "Input.insertText") held.set("e2", "reformatted");
    return serve(c);
  };
  const r = await fill(k, params(tabId));
  assert.equal(r.error?.code, "value_not_accepted");
  assert.deepEqual(k.fake.commands.filter((c) => c.method === "Input.dispatchKeyEvent"), []);
  assert.equal(held.get("e2"), "reformatted");
});

test("originOf drops one trailing dot of the host, as the host's Origin does (internal/onepassword/match.go)", () => {
  assert.equal(originOf("https://login.a.test./login"), "https://login.a.test");
  assert.equal(originOf("https://login.a.test.:8443/"), "https://login.a.test:8443");
  assert.equal(originOf("https://login.a.test:443/"), "https://login.a.test");
  assert.equal(originOf("http://[::1]:8080/"), "http://[::1]:8080");
  assert.equal(originOf("blob:https://login.a.test./x"), "https://login.a.test");
  assert.equal(originOf("about:blank"), "");
  assert.equal(originOf("data:text/html,x"), "");
});

test("credential_fill on a tab whose host ends in a dot fills: Chrome's origin and the token's are compared in one form", async () => {
  const k = kit();
  const held = new Map<string, string>();
  const calls: string[] = [];
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://login.a.test./login", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  servePage(k.fake, { id: "TOP", loaderId: "L1", url: "https://login.a.test./login", agent: loginAgent(calls, held) });
  await snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  insertInto(k, held, { ref: "e2" });
  const r = await fill(k, params(tab.tab_id));
  assert.deepEqual(r.result, { filled: true }, JSON.stringify(r.error));
  assert.equal(held.get("e2"), CANARY);
});
