// Revokes owned tabs when Chrome reports that they left their task group.
// Source of truth: spec 001 ("Moving an owned tab out of its task group,
// ungrouping it, closing it ... immediately revokes it") and DESIGN.md
// "Revocation" (reordering inside the group does not revoke).
import { RevokeClosed } from "../../protocol/generated";
import type { HasChrome, HasLog, HasOwnership, Notifies } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasPages } from "../context";
import { lossReason } from "./ext-tab";
import { revoke } from "./revoke";
import { whenReady } from "../when-ready";

export function watchOwnership(ctx: HasChrome & HasOwnership & HasPages & HasChallenges & Notifies & HasLog, ready: Promise<void>): void {
  const { chrome: api, ownership, log } = ctx;

  api.tabs.onRemoved((tabId) =>
    whenReady(ready, log, "tabs.onRemoved", async () => {
      await revoke(ctx, tabId, RevokeClosed, "event");
    }),
  );

  api.tabs.onUpdated((tabId, change) => {
    const groupId = change.groupId;
    if (groupId === undefined) return;
    whenReady(ready, log, "tabs.onUpdated", async () => {
      const owner = ownership.owner(tabId);
      // An unowned tab entering a task group (the user dragged it there)
      // is never adopted: group membership grants nothing (spec 001).
      // The owned tab's own grouping event lands here with its group.
      if (owner === undefined || owner.tab.groupId === groupId) return;
      // Observed in Chromium 156: Chrome reports groupId -1 on the way to
      // other outcomes. A closed grouped tab gets -1 just before onRemoved;
      // a whole group moved to another window (tabGroups.move, or dragging
      // the group) keeps its id, yet each tab gets -1, onAttached and the
      // group again. Chrome has finished the change before it delivers the
      // first event, so reading the tab back gives the true reason.
      const lost = lossReason(await api.tabs.get(tabId), owner.tab.groupId);
      if (lost !== undefined) await revoke(ctx, tabId, lost, "event");
    });
  });

  // A tab that changes windows alone loses its group (Chrome reports
  // groupId -1 first, then onDetached and onAttached); when the whole group
  // moved, the tab is still in it and only its window is updated. Whichever
  // event finds the loss revokes; revoke ignores the others.
  api.tabs.onAttached((tabId, windowId) =>
    whenReady(ready, log, "tabs.onAttached", async () => {
      const owner = ownership.owner(tabId);
      if (owner === undefined) return;
      const tab = await api.tabs.get(tabId);
      const lost = lossReason(tab, owner.tab.groupId);
      if (lost !== undefined) {
        await revoke(ctx, tabId, lost, "event");
        return;
      }
      ownership.moveWindow(tabId, windowId);
      await ownership.persist();
    }),
  );
}
