import assert from "node:assert/strict";
import { test } from "node:test";

import { card } from "./card";
import { isObject } from "./gojson";
import * as protocol from "./protocol";
import { toolResult } from "./results";
import type { ToolResult } from "./types";

// Every protocol value list: a string that is one of them is an enum value
// a card may show; every other string in a result is a canary.
const enumValues = new Set<string>(
  Object.entries(protocol)
    .filter(([k, v]) => k.endsWith("Values") && Array.isArray(v))
    .flatMap(([, v]) => v as string[]),
);

let n = 0;
// canarify replaces every string that is not an enum value (titles, URLs,
// text, values, file names, messages, recovery, and every handle too).
function canarify(v: unknown): unknown {
  if (typeof v === "string") {
    return enumValues.has(v) ? v : `CANARY${++n}`;
  }
  if (Array.isArray(v)) {
    return v.map(canarify);
  }
  if (isObject(v)) {
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, canarify(e)]));
  }
  return v;
}

const step = { index: 0, kind: "click", outcome: "staged", navigation: "committed", note: "typed into Search", served_by: "debugger", stage: { stage: "stg_1", step: 0, effect: "send", expires_in_ms: 1000 }, popups: [{ tab: "tab_9", url: "https://p/", title: "Popup" }], error: { code: "stale_ref", message: "m", recovery: "r", outcome: "not_started" } };
const snapshot = { tab: "tab_1", url: "https://secret.example/path", title: "Inbox (3)", page_revision: 7, ref_epoch: 1, mode: "interactive", coverage: { start: 0, end: 10, total: 10 }, status: "complete", text: "- button \"Send\" [ref=e1]", dialog: { type: "prompt", message: "Your password?" }, screenshot: { path: "/home/u/s.png", uri: "agenttab://blob/1", mime_type: "image/png", bytes: 3 }, origin_stops: [{ url: "https://evil/", reason: "denied" }], outcome: "observed" };

const results: Record<string, unknown[]> = {
  browser_open: [{ task: { id: "task_1", label: "Research" }, tab: { tab: "tab_1", url: "https://a/", title: "A", automation_route: "full", page_revision: 1, loading: true }, placement: "tab", outcome: "confirmed" }],
  browser_tabs: [{ task: { id: "task_1", label: "L" }, tabs: [{ tab: "tab_1", url: "https://a/", title: "A", automation_route: "full", page_revision: 1, loading: false }], outcome: "observed" }],
  browser_snapshot: [snapshot],
  browser_act: [{ tab: "tab_1", steps: [step], page_revision: 8, url: "https://a/", title: "A", snapshot, dialog: { type: "alert", message: "Hi" }, outcome: "staged", error: { code: "stale_ref", message: "e9", recovery: "snapshot", outcome: "not_started" } }],
  browser_wait: [{ tab: "tab_1", until: "text", satisfied: true, elapsed_ms: 5, url: "https://a/", title: "A", page_revision: 2, last_seen: "Welcome back", download: { id: "g", file_name: "tax-return.pdf", bytes: 9, state: "complete" } }],
  browser_commit: [{ stage: "stg_1", effect: "send", tab: "tab_1", step, page_revision: 3, url: "https://a/", title: "A", outcome: "confirmed" }],
  browser_handoff: [{ action: "status", notice: { notice_id: "ntc_1", tab: "tab_1", reason: "login", state: "open", origin: "https://bank/", age_ms: 1, expires_in_ms: 2 }, notices: [{ notice_id: "ntc_2", tab: "tab_1", reason: "captcha", state: "open", origin: "https://x/", age_ms: 1, expires_in_ms: 2 }], user_idle_state: "active", outcome: "observed" }],
  browser_credentials: [{ action: "prepare", candidates: 2, candidate: 1, attempt: 1, max_attempts: 3, has_username: true, has_password: true, has_one_time_code: false, filled: true, token: "tok-secret", expires_in_ms: 9, outcome: "confirmed" }],
  browser_profile: [
    { op: "history_search", items: [{ kind: "history", id: "1", title: "My bank", url: "https://bank/", visit_count: 3 }], truncated: true, outcome: "observed" },
    { op: "bookmarks_remove", ids: ["12"], state: "staged", stage: { stage: "stg_2", step: 0, effect: "bookmark_remove", expires_in_ms: 5 }, tabs: ["tab_3"], outcome: "staged" },
  ],
  browser_finish: [{ task: { id: "task_1", label: "L" }, released: 2, closed: 1, outcome: "confirmed" }],
  browser_developer: [{ tab: "tab_1", result: { value: "document.cookie=secret" }, outcome: "dispatched" }],
};

test("a card carries no string the result had but enum values: every other string is a canary it must not contain", () => {
  for (const [name, rs] of Object.entries(results)) {
    for (const r of rs) {
      for (const res of [toolResult(canarify(r)), toolResult(undefined, canarify({ code: "not_owned", message: "the title Inbox", recovery: "open https://x/", outcome: "not_started" }) as protocol.ProtocolErrorData)]) {
        const c = card(name, res);
        const shown = JSON.stringify(c);
        assert.ok(!/CANARY/.test(shown), `${name}: ${shown}`);
        assert.ok(c.title.startsWith(name), `${name}: ${c.title}`);
      }
    }
  }
});

test("a card shows counts, handles, revisions, step kinds and outcomes, error codes", () => {
  const act = card("browser_act", { ...toolResult(results["browser_act"]?.[0]), isError: true });
  assert.equal(act.title, "browser_act · failed");
  assert.deepEqual(act.lines, ["tab_1 · revision 8", "1 step(s)", "#0 · click · staged · committed · stage stg_1 · send · stale_ref · 1 popup(s)", "error stale_ref · outcome not_started", "snapshot after"]);
  const err: ToolResult = toolResult(undefined, { code: "not_owned", message: "tab_1 at https://x/", recovery: "Call browser_tabs", outcome: "not_started" });
  assert.deepEqual(card("browser_tabs", err), { title: "browser_tabs · not_owned", lines: ["outcome not_started"] });
  assert.deepEqual(card("browser_credentials", toolResult(results["browser_credentials"]?.[0])).lines, ["prepare · candidates 2 · candidate 1", "attempt 1 of 3", "username · password · filled"]);
  assert.deepEqual(card("browser_profile", toolResult(results["browser_profile"]?.[0])).lines, ["history_search · 1 item(s) · truncated"]);
  assert.deepEqual(card("browser_handoff", toolResult(results["browser_handoff"]?.[0])).lines, ["status · user active", "ntc_1 · tab_1 · open", "1 notice(s)", "ntc_2 · tab_1 · open"]);
});
