// Checks the host's messages at run time. The generated types describe what
// the host means to send; nothing proves it did, so every request's params
// are read field by field before a handler sees them. Go encodes a nil slice
// as null, which is read as an empty list.
import { CodeInvalidParams, OutcomeNotStarted } from "../protocol/generated";
import type {
  ExtFinishParams,
  ExtOpenParams,
  ExtTabsParams,
  Placement,
  ReconcileParams,
  ReconcileTab,
  ReconcileTask,
  TaskLook,
} from "../protocol/generated";
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

export function openParams(v: unknown): ExtOpenParams {
  const f = fields(v, "params");
  return {
    task: look(f["task"], "params.task"),
    url: str(f["url"], "params.url"),
    placement: placement(f["placement"], "params.placement"),
    load_wait_ms: int(f["load_wait_ms"], "params.load_wait_ms"),
  };
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

export function reconcileParams(v: unknown): ReconcileParams {
  const f = fields(v, "params");
  return { tasks: list(f["tasks"], "params.tasks", reconcileTask) };
}
