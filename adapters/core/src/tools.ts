// Each tool's call as internal/mcpserver's tool_*.go handlers make it: the
// agent's arguments (already checked against the input schema) mapped to
// the Core method's params as Go's encoding/json writes the protocol
// struct (omitempty drops a zero value; a pointer field is kept when
// given), the key mapped (agentkeys.go), the outcome of a lost call, and
// the result shaped like agenttab mcp's.
import type { Core } from "./core";
import { ProtocolError } from "./errors";
import { isObject, sortKeys } from "./gojson";
import { actResult, snapshotResult, toolResult, withField } from "./results";
import {
  CredentialPrepare,
  HandoffStatus,
  MethodAct,
  MethodBlobRead,
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
  OpenModeCreate,
  OutcomeNotStarted,
  OutcomeUnknown,
  ProfileRules,
} from "./protocol";
import type { Outcome, ProfileOp } from "./protocol";
import type { ToolResult } from "./types";

type Args = Record<string, unknown>;
type Handler = (core: Core, in_: Args, signal?: AbortSignal) => Promise<ToolResult>;

// Field encoders: what encoding/json writes for one struct field.
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined); // string,omitempty
const reqStr = (v: unknown): string => (typeof v === "string" ? v : ""); // string
const ptr = (v: unknown): unknown => v; // *T,omitempty: kept when given
const flag = (v: unknown): true | undefined => (v === true ? true : undefined); // bool,omitempty
const int = (v: unknown): number | undefined => (typeof v === "number" && v !== 0 ? v : undefined); // int,omitempty

/** shape builds a params object, leaving out the members encoding/json omits. */
function shape(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined) {
      out[k] = v;
    }
  }
  return out;
}

// waitCondition is protocol.WaitCondition.
function waitCondition(w: Args): Record<string, unknown> {
  return shape({ until: reqStr(w["until"]), url: str(w["url"]), text: str(w["text"]), gone: flag(w["gone"]), ref: str(w["ref"]), state: str(w["state"]), idle_ms: ptr(w["idle_ms"]), timeout_ms: ptr(w["timeout_ms"]) });
}

// step is protocol.Step.
function step(s: unknown): Record<string, unknown> {
  const a = isObject(s) ? s : {};
  const values = Array.isArray(a["values"]) && a["values"].length > 0 ? a["values"] : undefined;
  return shape({
    kind: reqStr(a["kind"]), ref: str(a["ref"]), text: str(a["text"]), keys: str(a["keys"]), values, url: str(a["url"]), to_ref: str(a["to_ref"]),
    position: str(a["position"]), delta_x: int(a["delta_x"]), delta_y: int(a["delta_y"]), accept: ptr(a["accept"]), prompt_text: str(a["prompt_text"]),
    wait: isObject(a["wait"]) ? waitCondition(a["wait"]) : undefined, path: str(a["path"]),
  });
}

// key maps the agent's key; a failure is the tool's result.
function key(core: Core, in_: Args): string | ToolResult {
  try {
    return core.keys.coreKey(str(in_["idempotency_key"]));
  } catch (e) {
    if (e instanceof ProtocolError) {
      return toolResult(undefined, e.data);
    }
    throw e;
  }
}

async function plain(core: Core, method: string, params: unknown, ifLost: Outcome, signal?: AbortSignal): Promise<ToolResult> {
  const r = await core.call(method, params, ifLost, signal);
  return r.ok ? toolResult(r.value) : toolResult(undefined, r.error);
}

// object is a Core answer as an object (a result is always one).
function object(v: unknown): Record<string, unknown> {
  return isObject(v) ? v : {};
}

export const handlers: Readonly<Record<string, Handler>> = {
  [MethodOpen]: async (core, in_, signal) => {
    const k = key(core, in_);
    if (typeof k !== "string") {
      return k;
    }
    const params = shape({ url: str(in_["url"]), mode: str(in_["mode"]) ?? OpenModeCreate, placement: str(in_["placement"]), idempotency_key: k, timeout_ms: ptr(in_["timeout_ms"]) });
    return plain(core, MethodOpen, params, OutcomeUnknown, signal);
  },
  [MethodTabs]: (core, in_, signal) => plain(core, MethodTabs, shape({ tab: str(in_["tab"]) }), OutcomeNotStarted, signal),
  [MethodSnapshot]: async (core, in_, signal) => {
    const params = shape({
      tab: reqStr(in_["tab"]), mode: str(in_["mode"]), start: int(in_["start"]), max_chars: ptr(in_["max_chars"]), cache_key: str(in_["cache_key"]),
      capture_chars: int(in_["capture_chars"]), find: str(in_["find"]), screenshot: str(in_["screenshot"]), inline_image: flag(in_["inline_image"]),
    });
    const r = await core.call(MethodSnapshot, params, OutcomeNotStarted, signal);
    if (!r.ok) {
      return toolResult(undefined, r.error);
    }
    const res = object(r.value);
    return withScreenshot(core, snapshotResult(res), res["screenshot"], in_["inline_image"] === true, signal);
  },
  [MethodAct]: async (core, in_, signal) => {
    const k = key(core, in_);
    if (typeof k !== "string") {
      return k;
    }
    const actions = Array.isArray(in_["actions"]) ? in_["actions"].map(step) : null;
    const params = shape({
      tab: reqStr(in_["tab"]), expected_page_revision: typeof in_["expected_page_revision"] === "number" ? in_["expected_page_revision"] : 0, actions,
      idempotency_key: k, snapshot_after: flag(in_["snapshot_after"]), actionable_timeout_ms: ptr(in_["actionable_timeout_ms"]),
    });
    const r = await core.call(MethodAct, params, OutcomeUnknown, signal);
    if (!r.ok) {
      return toolResult(undefined, r.error);
    }
    const res = object(r.value);
    const out = actResult(res);
    // A batch that stopped at a failed step is an error the model must see.
    out.isError = out.isError || (res["error"] !== undefined && res["error"] !== null);
    return out;
  },
  [MethodWait]: (core, in_, signal) => {
    const { tab, ...condition } = in_;
    return plain(core, MethodWait, { tab: reqStr(tab), condition: waitCondition(condition) }, OutcomeNotStarted, signal);
  },
  [MethodCommit]: async (core, in_, signal) => {
    const k = key(core, in_);
    if (typeof k !== "string") {
      return k;
    }
    const params = shape({ stage: reqStr(in_["stage"]), idempotency_key: k, actionable_timeout_ms: ptr(in_["actionable_timeout_ms"]) });
    const r = await core.call(MethodCommit, params, OutcomeUnknown, signal);
    if (!r.ok) {
      return toolResult(undefined, r.error);
    }
    const out = toolResult(r.value);
    const err = object(r.value)["error"];
    out.isError = out.isError || (err !== undefined && err !== null);
    return out;
  },
  [MethodHandoff]: async (core, in_, signal) => {
    const k = key(core, in_);
    if (typeof k !== "string") {
      return k;
    }
    const params = shape({
      action: reqStr(in_["action"]), tab: str(in_["tab"]), reason: str(in_["reason"]), message: str(in_["message"]), notice_id: str(in_["notice_id"]),
      expires_in_s: ptr(in_["expires_in_s"]), idempotency_key: k,
    });
    // A status read changes nothing; a lost request or resolve may have.
    return plain(core, MethodHandoff, params, in_["action"] === HandoffStatus ? OutcomeNotStarted : OutcomeUnknown, signal);
  },
  [MethodCredentials]: async (core, in_, signal) => {
    const k = key(core, in_);
    if (typeof k !== "string") {
      return k;
    }
    const params = shape({ action: reqStr(in_["action"]), tab: str(in_["tab"]), token: str(in_["token"]), ref: str(in_["ref"]), field: str(in_["field"]), idempotency_key: k });
    // A lost fill may have written the value; a lost advance may have used
    // an attempt. A lost prepare changed nothing the agent can see.
    return plain(core, MethodCredentials, params, in_["action"] === CredentialPrepare ? OutcomeNotStarted : OutcomeUnknown, signal);
  },
  [MethodProfile]: async (core, in_, signal) => {
    const op = reqStr(in_["op"]) as ProfileOp;
    const write = ProfileRules[op]?.write === true;
    // A write's key is mapped (a fresh one when none was given); a read
    // takes none, and one given still goes, mapped, for the host to refuse.
    let k: string | undefined;
    if (write || str(in_["idempotency_key"]) !== undefined) {
      const m = key(core, in_);
      if (typeof m !== "string") {
        return m;
      }
      k = m;
    }
    const params = shape({
      op, query: str(in_["query"]), id: str(in_["id"]), parent_id: str(in_["parent_id"]), index: ptr(in_["index"]), title: str(in_["title"]), url: str(in_["url"]),
      start_time_ms: ptr(in_["start_time_ms"]), end_time_ms: ptr(in_["end_time_ms"]), max_results: ptr(in_["max_results"]), idempotency_key: k,
    });
    const r = await core.call(MethodProfile, params, write ? OutcomeUnknown : OutcomeNotStarted, signal);
    if (!r.ok) {
      return toolResult(undefined, r.error);
    }
    // items are []any in Go: decoded into maps, re-encoded with sorted keys.
    const res = object(r.value);
    return toolResult(Array.isArray(res["items"]) ? withField(res, "items", sortKeys(res["items"])) : res);
  },
  [MethodFinish]: async (core, in_, signal) => {
    const k = key(core, in_);
    if (typeof k !== "string") {
      return k;
    }
    const r = await core.call(MethodFinish, shape({ close_tabs: flag(in_["close_tabs"]), idempotency_key: k }), OutcomeUnknown, signal);
    if (!r.ok) {
      return toolResult(undefined, r.error);
    }
    core.taskEnded();
    return toolResult(r.value);
  },
  [MethodDeveloper]: async (core, in_, signal) => {
    const k = key(core, in_);
    if (typeof k !== "string") {
      return k;
    }
    const p = in_["params"];
    const params = shape({
      tab: reqStr(in_["tab"]), action: reqStr(in_["action"]), method: str(in_["method"]), params: isObject(p) && Object.keys(p).length > 0 ? p : undefined,
      expression: str(in_["expression"]), idempotency_key: k,
    });
    const r = await core.call(MethodDeveloper, params, OutcomeUnknown, signal);
    if (!r.ok) {
      return toolResult(undefined, r.error);
    }
    // result is any in Go: re-encoded with sorted keys.
    const res = object(r.value);
    return toolResult("result" in res ? withField(res, "result", sortKeys(res["result"])) : res);
  },
};

// withScreenshot adds a resource link to a screenshot, and the image
// itself only when asked (tool_snapshot.go).
async function withScreenshot(core: Core, r: ToolResult, shot: unknown, inline: boolean, signal?: AbortSignal): Promise<ToolResult> {
  if (!isObject(shot) || r.isError) {
    return r;
  }
  const uri = reqStr(shot["uri"]);
  const link: ToolResult["content"][number] = { type: "resource_link", uri, name: "screenshot", size: typeof shot["bytes"] === "number" ? shot["bytes"] : 0 };
  if (str(shot["mime_type"]) !== undefined) {
    link.mimeType = reqStr(shot["mime_type"]);
  }
  r.content.push(link);
  if (inline) {
    const blob = await core.call(MethodBlobRead, { uri }, OutcomeNotStarted, signal);
    if (blob.ok) {
      const b = object(blob.value);
      const data = reqStr(b["base64"]);
      if (/^[A-Za-z0-9+/]*={0,2}$/.test(data) && data.length % 4 === 0) {
        r.content.push({ type: "image", data, mimeType: reqStr(b["mime_type"]) });
      }
    }
  }
  return r;
}
