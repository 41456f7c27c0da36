// Checks the host's messages at run time. The generated types describe what
// the host means to send; nothing proves it did, so every request's params
// are read field by field before a handler sees them. Go encodes a nil slice
// as null, which is read as an empty list.
import { CodeInvalidParams, OutcomeNotStarted, WaitStateValues } from "../../protocol/generated";
import type {
  ExtAdoptParams,
  ExtActParams,
  ExtFinishParams,
  ExtOpenParams,
  ExtSnapshotParams,
  ExtTabsParams,
  ExtWaitParams,
  OriginEntry,
  OriginPolicy,
  Placement,
  ReconcileParams,
  ReconcileTab,
  ReconcileTask,
  ScreenshotKind,
  SnapshotMode,
  Step,
  TaskLook,
  WaitCondition,
  WaitUntil,
} from "../../protocol/generated";
import { STEP_KINDS } from "../act/kinds";
import { Failure } from "./failure";

type Fields = Record<string, unknown>;

function invalid(path: string, want: string): never {
  throw new Failure(
    CodeInvalidParams,
    OutcomeNotStarted,
    `${path} must be ${want}`,
    "The host sent a request the extension cannot read; update AgentTab so the host and the extension match.",
  );
}

export function isFields(v: unknown): v is Fields {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fields(v: unknown, path: string): Fields {
  return isFields(v) ? v : invalid(path, "an object");
}

function str(v: unknown, path: string): string {
  return typeof v === "string" ? v : invalid(path, "a string");
}

function int(v: unknown, path: string): number {
  return typeof v === "number" && Number.isSafeInteger(v) ? v : invalid(path, "an integer");
}

function list<T>(v: unknown, path: string, item: (v: unknown, path: string) => T): T[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) return invalid(path, "a list");
  return v.map((x, i) => item(x, `${path}[${i}]`));
}

function placement(v: unknown, path: string): Placement {
  return v === "tab" || v === "new_window" ? v : invalid(path, `"tab" or "new_window"`);
}

function look(v: unknown, path: string): TaskLook {
  const f = fields(v, path);
  return { task_id: str(f["task_id"], `${path}.task_id`), label: str(f["label"], `${path}.label`), color: str(f["color"], `${path}.color`) };
}

/** The params of a method without any (struct{} in protocol.NativeParams): whatever was sent is not read. */
export function none(): Record<string, never> {
  return {};
}

export function openParams(v: unknown): ExtOpenParams {
  const f = fields(v, "params");
  return {
    task: look(f["task"], "params.task"),
    url: str(f["url"], "params.url"),
    placement: placement(f["placement"], "params.placement"),
    load_wait_ms: int(f["load_wait_ms"], "params.load_wait_ms"),
  };
}

export function adoptParams(v: unknown): ExtAdoptParams {
  const f = fields(v, "params");
  return { task: look(f["task"], "params.task"), timeout_ms: int(f["timeout_ms"], "params.timeout_ms") };
}

export function tabsParams(v: unknown): ExtTabsParams {
  const f = fields(v, "params");
  return { task_id: str(f["task_id"], "params.task_id"), tab_ids: list(f["tab_ids"], "params.tab_ids", int) };
}

export function finishParams(v: unknown): ExtFinishParams {
  const f = fields(v, "params");
  return { task_id: str(f["task_id"], "params.task_id"), close: list(f["close"], "params.close", int) };
}

function reconcileTab(v: unknown, path: string): ReconcileTab {
  const f = fields(v, path);
  return {
    tab_id: int(f["tab_id"], `${path}.tab_id`),
    group_id: int(f["group_id"], `${path}.group_id`),
    revision_floor: int(f["revision_floor"], `${path}.revision_floor`),
  };
}

function reconcileTask(v: unknown, path: string): ReconcileTask {
  const f = fields(v, path);
  return { task: look(f["task"], `${path}.task`), tabs: list(f["tabs"], `${path}.tabs`, reconcileTab) };
}

// Optional fields: Go leaves out empty ones (omitempty), so absent and
// null read as the field's zero value and are then left out here too.

function has(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function bool(v: unknown, path: string): boolean {
  return typeof v === "boolean" ? v : invalid(path, "true or false");
}

function oneOf<T extends string>(v: unknown, path: string, values: readonly T[]): T {
  const found = values.find((x) => x === v);
  return found ?? invalid(path, `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`);
}

const MODES: readonly SnapshotMode[] = ["interactive", "full", "readable"];
const SCREENSHOTS: readonly ScreenshotKind[] = ["none", "viewport", "full_page"];
const UNTILS: readonly WaitUntil[] = ["load", "url", "text", "ref", "navigation", "download", "network_idle"];

export function snapshotParams(v: unknown): ExtSnapshotParams {
  const f = fields(v, "params");
  return {
    task_id: str(f["task_id"], "params.task_id"),
    tab_id: int(f["tab_id"], "params.tab_id"),
    mode: has(f["mode"]) ? oneOf(f["mode"], "params.mode", MODES) : "interactive",
    capture_chars: int(f["capture_chars"], "params.capture_chars"),
    screenshot: has(f["screenshot"]) ? oneOf(f["screenshot"], "params.screenshot", SCREENSHOTS) : "none",
  };
}

export function waitCondition(v: unknown, path: string): WaitCondition {
  const f = fields(v, path);
  const c: WaitCondition = { until: oneOf(f["until"], `${path}.until`, UNTILS) };
  if (has(f["url"])) c.url = str(f["url"], `${path}.url`);
  if (has(f["text"])) c.text = str(f["text"], `${path}.text`);
  if (has(f["gone"])) c.gone = bool(f["gone"], `${path}.gone`);
  if (has(f["ref"])) c.ref = str(f["ref"], `${path}.ref`);
  if (has(f["state"])) c.state = oneOf(f["state"], `${path}.state`, WaitStateValues);
  if (has(f["timeout_ms"])) c.timeout_ms = int(f["timeout_ms"], `${path}.timeout_ms`);
  if (has(f["idle_ms"])) c.idle_ms = int(f["idle_ms"], `${path}.idle_ms`);
  return c;
}

function step(v: unknown, path: string): Step {
  const f = fields(v, path);
  const s: Step = { kind: oneOf(f["kind"], `${path}.kind`, STEP_KINDS) };
  for (const k of ["ref", "text", "keys", "url", "to_ref", "prompt_text"] as const) {
    if (has(f[k])) s[k] = str(f[k], `${path}.${k}`);
  }
  if (has(f["values"])) s.values = list(f["values"], `${path}.values`, str);
  if (has(f["delta_x"])) s.delta_x = int(f["delta_x"], `${path}.delta_x`);
  if (has(f["delta_y"])) s.delta_y = int(f["delta_y"], `${path}.delta_y`);
  if (has(f["accept"])) s.accept = bool(f["accept"], `${path}.accept`);
  if (has(f["wait"])) s.wait = waitCondition(f["wait"], `${path}.wait`);
  return s;
}

export function actParams(v: unknown): ExtActParams {
  const f = fields(v, "params");
  return {
    task_id: str(f["task_id"], "params.task_id"),
    tab_id: int(f["tab_id"], "params.tab_id"),
    expected_page_revision: int(f["expected_page_revision"], "params.expected_page_revision"),
    actions: list(f["actions"], "params.actions", step),
  };
}

export function waitParams(v: unknown): ExtWaitParams {
  const f = fields(v, "params");
  return {
    task_id: str(f["task_id"], "params.task_id"),
    tab_id: int(f["tab_id"], "params.tab_id"),
    condition: waitCondition(f["condition"], "params.condition"),
  };
}

export function reconcileParams(v: unknown): ReconcileParams {
  const f = fields(v, "params");
  return { tasks: list(f["tasks"], "params.tasks", reconcileTask) };
}

function originEntry(v: unknown, path: string): OriginEntry {
  const f = fields(v, path);
  const scheme = oneOf(f["scheme"], `${path}.scheme`, ["http", "https"] as const);
  return { scheme, host: str(f["host"], `${path}.host`), subdomains: bool(f["subdomains"], `${path}.subdomains`), port: int(f["port"], `${path}.port`) };
}

/**
 * The welcome's origin policy. Both lists must be there: a welcome without
 * them (a host of another build) would otherwise read as no constraint.
 */
export function originPolicy(v: unknown): OriginPolicy {
  const f = fields(v, "welcome.origins");
  for (const key of ["allowed", "denied"]) {
    if (!Array.isArray(f[key])) invalid(`welcome.origins.${key}`, "a list");
  }
  return { allowed: list(f["allowed"], "welcome.origins.allowed", originEntry), denied: list(f["denied"], "welcome.origins.denied", originEntry) };
}
