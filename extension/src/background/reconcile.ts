// The host's "reconcile", sent once after each handshake. A tab stays owned
// only when the host lists it for the task, this worker's record has it for
// the same task and group, and Chrome still shows it in that group; every
// other tab of a listed task is revoked ("finding inconsistent ownership
// immediately revokes it", spec 001). Tasks the host does not list are
// forgotten, and their groups left as they are: on doubt, a user's tab is
// never touched.
import { RevokeClosed, RevokeInconsistent } from "../protocol/generated";
import type { ExtTab, ReconcileParams, ReconcileResult, ReconcileTask, Revocation } from "../protocol/generated";
import type { Context } from "./context";
import { extTab, lossReason } from "./ext-tab";

export async function reconcile(ctx: Context, p: ReconcileParams): Promise<ReconcileResult> {
  const { ownership } = ctx;
  const listed = new Set(p.tasks.map((t) => t.task.task_id));
  for (const taskId of ownership.taskIds()) {
    if (!listed.has(taskId)) ownership.dropTask(taskId);
  }
  const kept: ExtTab[] = [];
  const revoked: Revocation[] = [];
  for (const t of p.tasks) {
    await reconcileTask(ctx, t, kept, revoked);
  }
  await ownership.persist();
  // The origin guard holds the kept tabs and lets go of the revoked ones.
  await ctx.origins.sync();
  return { kept, revoked };
}

async function reconcileTask(ctx: Context, t: ReconcileTask, kept: ExtTab[], revoked: Revocation[]): Promise<void> {
  const { ownership } = ctx;
  const taskId = t.task.task_id;
  const record = ownership.ensureTask(t.task);
  const hostTabs = new Set(t.tabs.map((h) => h.tab_id));
  const lose = (tabId: number, reason: Revocation["reason"]) => {
    ownership.drop(tabId);
    revoked.push({ task_id: taskId, tab_id: tabId, reason });
  };
  for (const tabId of [...record.tabs.keys()]) {
    if (!hostTabs.has(tabId)) lose(tabId, RevokeInconsistent);
  }
  for (const h of t.tabs) {
    const owned = record.tabs.get(h.tab_id);
    if (owned === undefined || owned.groupId !== h.group_id) {
      // Only a record of this very task counts; another task's record of
      // the same tab is inconsistent too and goes with it.
      lose(h.tab_id, RevokeInconsistent);
      continue;
    }
    const tab = await ctx.chrome.tabs.get(h.tab_id);
    if (tab === undefined || lossReason(tab, owned.groupId) !== undefined) {
      lose(h.tab_id, tab === undefined ? RevokeClosed : RevokeInconsistent);
      continue;
    }
    ownership.raise(h.tab_id, h.revision_floor);
    kept.push(extTab(tab, owned.revision));
  }
}
