// The collapsed card an adapter shows for a tool result (issue 15: "counts
// and identifiers only"). A card never carries what a page, the user's
// profile or the agent wrote: no title, URL, page text, value, file name,
// search text, message or recovery prose. So it is built from three kinds
// of value only, each checked here rather than trusted: numbers and
// booleans; enum values that are in protocol's value lists; and handles of
// the host's own forms (protocol.HandlePrefixes: tab_…, stg_…, ntc_…, task_…). Anything else is
// left out, whatever field it came in.
import { isObject } from "./gojson";
import {
  CredentialActionValues,
  DeveloperActionValues,
  EffectValues,
  ErrorCodeValues,
  HandlePrefixes,
  HandoffActionValues,
  IdleStateValues,
  MethodAct,
  MethodCommit,
  MethodCredentials,
  MethodDeveloper,
  MethodFinish,
  MethodHandoff,
  MethodOpen,
  MethodProfile,
  MethodSnapshot,
  MethodTabs,
  MethodWait,
  NavigationValues,
  NoticeStateValues,
  OutcomeValues,
  ProfileOpValues,
  RouteValues,
  SnapshotStatusValues,
  StepKindValues,
  WaitUntilValues,
} from "./protocol";
import type { ToolResult } from "./types";

type Obj = Record<string, unknown>;

// handle is a host-made handle (one of protocol.HandlePrefixes, then
// lower-case hex or letters), or undefined.
function handle(v: unknown): string | undefined {
  if (typeof v !== "string") {
    return undefined;
  }
  const prefix = HandlePrefixes.find((p) => v.startsWith(p));
  return prefix !== undefined && /^[0-9a-z]{1,64}$/.test(v.slice(prefix.length)) ? v : undefined;
}

// enumOf is v when it is one of list's values.
function enumOf(v: unknown, list: readonly string[]): string | undefined {
  return typeof v === "string" && list.includes(v) ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function obj(v: unknown): Obj {
  return isObject(v) ? v : {};
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

// line joins the parts that are there: "tab tab_1 · revision 7".
function line(...parts: (string | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === "string" && p !== "").join(" · ");
}

function labelled(label: string, v: string | number | boolean | undefined): string | undefined {
  return v === undefined ? undefined : `${label} ${String(v)}`;
}

function yes(label: string, v: unknown): string | undefined {
  return v === true ? label : undefined;
}

function tabLine(r: Obj): string {
  return line(handle(r["tab"]), labelled("revision", num(r["page_revision"])), enumOf(r["automation_route"], RouteValues));
}

function errorLine(e: unknown): string | undefined {
  if (!isObject(e)) {
    return undefined;
  }
  return line("error " + (enumOf(e["code"], ErrorCodeValues) ?? "unknown"), labelled("outcome", enumOf(e["outcome"], OutcomeValues)));
}

function stepLine(s: unknown): string {
  const st = obj(s);
  const stage = obj(st["stage"]);
  return line(
    labelled("#", num(st["index"]))?.replace("# ", "#"),
    enumOf(st["kind"], StepKindValues),
    enumOf(st["outcome"], OutcomeValues),
    enumOf(st["navigation"], NavigationValues),
    handle(stage["stage"]) !== undefined ? `stage ${handle(stage["stage"]) ?? ""}` : undefined,
    enumOf(stage["effect"], EffectValues),
    isObject(st["error"]) ? enumOf(st["error"]["code"], ErrorCodeValues) : undefined,
    list(st["popups"]).length > 0 ? `${list(st["popups"]).length} popup(s)` : undefined,
  );
}

const summaries: Readonly<Record<string, (r: Obj) => string[]>> = {
  [MethodOpen]: (r) => [tabLine(obj(r["tab"])), line(labelled("task", handle(obj(r["task"])["id"])), yes("replay", r["replay"]))],
  [MethodTabs]: (r) => {
    const tabs = list(r["tabs"]);
    return [`${tabs.length} tab(s)`, ...tabs.map((t) => tabLine(obj(t)))];
  },
  [MethodSnapshot]: (r) => {
    const cov = obj(r["coverage"]);
    return [
      tabLine(r),
      line(enumOf(r["status"], SnapshotStatusValues), `characters ${num(cov["start"]) ?? 0}–${num(cov["end"]) ?? 0} of ${num(cov["total"]) ?? 0}`),
      line(yes("screenshot", isObject(r["screenshot"])), yes("dialog open", isObject(r["dialog"])), yes("challenge", isObject(r["challenge"]))),
    ];
  },
  [MethodAct]: (r) => {
    const steps = list(r["steps"]);
    return [tabLine(r), `${steps.length} step(s)`, ...steps.map(stepLine), errorLine(r["error"]) ?? "", isObject(r["snapshot"]) ? "snapshot after" : ""];
  },
  [MethodWait]: (r) => [
    tabLine(r),
    line(enumOf(r["until"], WaitUntilValues), r["satisfied"] === true ? "satisfied" : "not satisfied", labelled("elapsed ms", num(r["elapsed_ms"]))),
  ],
  [MethodCommit]: (r) => [line(handle(r["stage"]) !== undefined ? `stage ${handle(r["stage"]) ?? ""}` : undefined, enumOf(r["effect"], EffectValues)), tabLine(r), stepLine(r["step"]), errorLine(r["error"]) ?? ""],
  [MethodHandoff]: (r) => {
    const notices = list(r["notices"]);
    const one = obj(r["notice"]);
    return [
      line(enumOf(r["action"], HandoffActionValues), labelled("user", enumOf(r["user_idle_state"], IdleStateValues))),
      line(handle(one["notice_id"]), handle(one["tab"]), enumOf(one["state"], NoticeStateValues)),
      notices.length > 0 ? `${notices.length} notice(s)` : "",
      ...notices.map((n) => line(handle(obj(n)["notice_id"]), handle(obj(n)["tab"]), enumOf(obj(n)["state"], NoticeStateValues))),
    ];
  },
  [MethodCredentials]: (r) => [
    line(enumOf(r["action"], CredentialActionValues), labelled("candidates", num(r["candidates"])), labelled("candidate", num(r["candidate"]))),
    line(num(r["attempt"]) !== undefined ? `attempt ${num(r["attempt"]) ?? 0} of ${num(r["max_attempts"]) ?? 0}` : undefined),
    line(yes("username", r["has_username"]), yes("password", r["has_password"]), yes("one-time code", r["has_one_time_code"]), yes("filled", r["filled"])),
  ],
  [MethodProfile]: (r) => [
    line(enumOf(r["op"], ProfileOpValues), Array.isArray(r["items"]) ? `${list(r["items"]).length} item(s)` : undefined, yes("truncated", r["truncated"])),
    line(Array.isArray(r["ids"]) ? `${list(r["ids"]).length} id(s)` : undefined, Array.isArray(r["tabs"]) ? `${list(r["tabs"]).length} tab(s)` : undefined),
    line(...list(r["tabs"]).map(handle)),
    isObject(r["stage"]) && handle(r["stage"]["stage"]) !== undefined ? `stage ${handle(r["stage"]["stage"]) ?? ""}` : "",
  ],
  [MethodFinish]: (r) => [line(labelled("released", num(r["released"])), labelled("closed", num(r["closed"])), yes("replay", r["replay"]))],
  [MethodDeveloper]: (r) => [line(handle(r["tab"]), enumOf(r["action"], DeveloperActionValues))],
};

/**
 * card is the collapsed summary of a tool result for an adapter's UI: a
 * title (the tool and its outcome or error code) and a few lines of counts
 * and identifiers. The agent still receives the full result.
 */
export function card(name: string, result: ToolResult): { title: string; lines: string[] } {
  const sc = result.structuredContent ?? {};
  const tool = /^browser_[a-z]+$/.test(name) ? name : "tool";
  if (result.isError && enumOf(sc["code"], ErrorCodeValues) !== undefined && !("steps" in sc) && !("step" in sc)) {
    return { title: `${tool} · ${String(sc["code"])}`, lines: [line(labelled("outcome", enumOf(sc["outcome"], OutcomeValues)))].filter((l) => l !== "") };
  }
  const outcome = enumOf(sc["outcome"], OutcomeValues);
  const summary = summaries[name];
  const lines = (summary === undefined ? [] : summary(sc)).filter((l) => l !== "");
  return { title: line(tool, result.isError ? "failed" : outcome), lines };
}
