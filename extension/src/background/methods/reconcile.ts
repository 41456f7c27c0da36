// The host's "reconcile", sent after each handshake and before a Resume.
// Source of truth: spec 001 (the three ownership paths; "group membership
// alone never grants authority"; "finding inconsistent ownership
// immediately revokes it") and spec 000 ("a durable started record after
// a crash returns unknown and is never replayed").
//
// For each task the host lists:
// - a tab the host lists stays owned when this worker's record has it for
//   the same task and group and Chrome still shows it there; otherwise it
//   is revoked;
// - a tab this worker opened or adopted for the task that the host lists
//   nowhere is found: the host that asked for it died before it recorded
//   the answer, e.g. killed while an open waited for its page. When Chrome
//   still shows it in the recorded group the host records it, so the task
//   owns what it opened: browser_tabs lists it and finish closes it.
//   Nothing is replayed; the open's key stays started and answers
//   unknown, whose recovery sends the agent to browser_tabs;
// - every other tab in the task's groups (one the user dragged in, a
//   child the host never granted, one a worker that died mid-open grouped
//   and never recorded) is ungrouped and left to the user, never closed.
// A task the host does not list has ended without this worker (finished
// when its resumable time ran out while the worker was away): it is
// released as a finish without close_tabs would, so no group of it stays.
//
// A group id alone proves nothing (it may name a group the user made their
// own, or one of a later browser session, whose tab ids start again from
// the same numbers): a tab is found, and a group's strays released, only while the
// group still has the title and colour the worker gave it for the task
// (task-group.ts isTaskGroup). A record read from the storage.local mirror
// may be of an earlier browser session (ownership.ts): such a tab is kept
// only when the host lists it and its group is the task's by that test, it
// is never found, and nothing else in its group is released. Whatever is
// left afterwards has been checked, so the records are trusted from then on.
import { RevokeClosed, RevokeInconsistent } from "../../protocol/generated";
import type { ReconcileParams, ReconcileResult, ReconcileTask, Revocation } from "../../protocol/generated";
import type { Tab } from "../../chrome/api";
import type { HasChrome, HasLog, HasOwnership } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasOrigins, HasPages } from "../context";
import { extTab, lossReason } from "../tabs/ext-tab";
import { release } from "./finish";
import type { OwnedTab, TaskRecord } from "../tabs/ownership";
import { isTaskGroup, releaseStrays } from "../tabs/task-group";

export async function reconcile(ctx: HasChrome & HasOwnership & HasPages & HasChallenges & HasOrigins & HasLog, p: ReconcileParams): Promise<ReconcileResult> {
  const { ownership } = ctx;
  const listed = new Set(p.tasks.map((t) => t.task.task_id));
  const ended: TaskRecord[] = [];
  for (const taskId of ownership.taskIds()) {
    const record = listed.has(taskId) ? undefined : ownership.dropTask(taskId);
    if (record !== undefined) ended.push(provenPart(ctx, record));
  }
  // A tab the host lists for any task is never found for another one.
  const hostTabs = new Set(p.tasks.flatMap((t) => t.tabs.map((h) => h.tab_id)));
  const result: ReconcileResult = { kept: [], found: [], revoked: [] };
  const listedRecords: TaskRecord[] = [];
  for (const t of p.tasks) {
    // The look the worker grouped the task's tabs with, before the host's
    // current one replaces it.
    const grouped = ownership.task(t.task.task_id)?.look ?? t.task;
    const record = ownership.ensureTask(t.task);
    listedRecords.push(provenPart(ctx, { look: grouped, tabs: record.tabs }));
    await reconcileTask(ctx, t, record, grouped, hostTabs, result);
  }
  // The records go first, as at finish, so the ungrouping below raises no
  // revocations.
  await ownership.persist();
  for (const record of ended) await release(ctx, record, new Set());
  for (const record of listedRecords) await releaseStrays(ctx, record);
  ownership.trustAll();
  // The origin guard holds the kept and found tabs and lets go of the rest.
  await ctx.origins.sync();
  return result;
}

/** The record's tabs of this browser session (a copy: the groups whose strays may be released, the tabs an ended task may ungroup). */
function provenPart(ctx: HasOwnership, record: TaskRecord): TaskRecord {
  return { look: record.look, tabs: new Map([...record.tabs].filter(([tabId]) => ctx.ownership.proven(tabId))) };
}

async function reconcileTask(ctx: HasChrome & HasOwnership & HasLog, t: ReconcileTask, record: TaskRecord, grouped: TaskRecord["look"], hostTabs: ReadonlySet<number>, result: ReconcileResult): Promise<void> {
  const { ownership } = ctx;
  const taskId = t.task.task_id;
  const lose = (tabId: number, reason: Revocation["reason"]) => {
    ownership.drop(tabId);
    result.revoked.push({ task_id: taskId, tab_id: tabId, reason });
  };
  // Chrome must still show the tab in the group the record has; when the
  // record alone vouches for the tab (found, or read from the mirror), that
  // group must also still be the task's.
  const confirmed = async (tabId: number, owned: OwnedTab, checkGroup: boolean): Promise<Tab | undefined> => {
    const tab = await ctx.chrome.tabs.get(tabId);
    if (tab !== undefined && lossReason(tab, owned.groupId) === undefined && (!checkGroup || (await isTaskGroup(ctx, grouped, owned.groupId)))) return tab;
    lose(tabId, tab === undefined ? RevokeClosed : RevokeInconsistent);
    return undefined;
  };
  const listedHere = new Set(t.tabs.map((h) => h.tab_id));
  for (const [tabId, owned] of [...record.tabs]) {
    if (listedHere.has(tabId)) continue;
    if (hostTabs.has(tabId)) {
      lose(tabId, RevokeInconsistent); // the host holds it for another task
      continue;
    }
    if (owned.source === "child" || !ownership.proven(tabId)) {
      // The host grants a child only while it holds the opener for the
      // task (children.go), which this record cannot show: an unrecorded
      // child is not the task's, and is released with the strays below.
      // A record from the mirror may name the user's tab now: finding it
      // would let browser_finish close it.
      lose(tabId, RevokeInconsistent);
      continue;
    }
    const tab = await confirmed(tabId, owned, true);
    if (tab !== undefined) result.found.push({ task_id: taskId, source: owned.source, tab: extTab(tab, owned.revision) });
  }
  for (const h of t.tabs) {
    const owned = record.tabs.get(h.tab_id);
    if (owned === undefined || owned.groupId !== h.group_id) {
      // Only a record of this very task counts; another task's record of
      // the same tab is inconsistent too and goes with it.
      lose(h.tab_id, RevokeInconsistent);
      continue;
    }
    const tab = await confirmed(h.tab_id, owned, !ownership.proven(h.tab_id));
    if (tab === undefined) continue;
    ownership.raise(h.tab_id, h.revision_floor);
    result.kept.push(extTab(tab, owned.revision));
  }
}
