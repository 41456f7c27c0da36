// The popup's task list and its End task button. Source of truth:
// protocol/popup_tasks.go: only the host knows whether an agent's
// connection holds a task and when it last acted, so the worker asks it
// (task_overview) and merges the answer with its ownership map; End task
// asks the host (end_task), which finishes the task as browser_finish
// would and sends the native finish that releases or closes its tabs,
// clears its notices and stages, and ungroups, so no group is left behind.
import { NativeEndTask, NativeTaskOverview } from "../../protocol/generated";
import type { EndTaskParams, TaskOverview } from "../../protocol/generated";
import type { TaskSummary } from "../../shared/status";
import { isFields } from "../fields";
import { errorText } from "../log";
import type { PopupCtx, PopupHost } from "./env";

/** The popup waits this long for the host's overview; without it tasks show as not connected. */
export const OVERVIEW_MS = 1_000;

/** Ending closes tabs and ungroups in Chrome before the host answers. */
export const END_TASK_MS = 15_000;

export async function taskSummaries(ctx: PopupCtx, host: PopupHost): Promise<TaskSummary[]> {
  const overview = await taskOverview(ctx, host);
  return ctx.ownership.taskIds().flatMap((id) => {
    const t = ctx.ownership.task(id);
    if (t === undefined) return [];
    const o = overview.get(id);
    const s: TaskSummary = { taskId: id, label: t.look.label, color: t.look.color, ownedTabs: t.tabs.size, connected: o?.connected ?? false, developer: t.look.developer === true };
    if (o !== undefined) s.idleMs = o.idle_ms;
    return [s];
  });
}

/** The host's tasks by id; empty when the host is away or does not answer in time. */
async function taskOverview(ctx: PopupCtx, host: PopupHost): Promise<Map<string, TaskOverview>> {
  const byId = new Map<string, TaskOverview>();
  if (host.state().state !== "connected") return byId;
  try {
    const a = await host.ask(NativeTaskOverview, {}, OVERVIEW_MS);
    const tasks = "result" in a && isFields(a.result) ? a.result["tasks"] : undefined;
    if (!Array.isArray(tasks)) return byId;
    for (const t of tasks) {
      if (isFields(t) && typeof t["task_id"] === "string" && typeof t["connected"] === "boolean" && typeof t["idle_ms"] === "number") {
        byId.set(t["task_id"], { task_id: t["task_id"], connected: t["connected"], idle_ms: t["idle_ms"] });
      }
    }
  } catch (e) {
    ctx.log.info(`task overview: ${errorText(e)}`);
  }
  return byId;
}

/** The user's End task: the host ends it and sends the finish; without a host nothing changes. */
export async function endTask(ctx: PopupCtx, host: PopupHost, taskId: string, closeTabs: boolean): Promise<void> {
  const params: EndTaskParams = { task_id: taskId, close_tabs: closeTabs };
  try {
    const a = await host.ask(NativeEndTask, params, END_TASK_MS);
    if ("error" in a) ctx.log.warn(`end task ${taskId}: the host refused: ${JSON.stringify(a.error)}`);
  } catch (e) {
    ctx.log.warn(`end task ${taskId}: ${errorText(e)}`);
  }
}
