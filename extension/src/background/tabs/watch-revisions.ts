// Page revisions of owned tabs. Source of truth: DESIGN.md "Page revision
// and refs": the revision advances on every committed navigation of the top
// frame, same-document ones included. It starts at 1 when the tab is
// recorded (ownership.add).
//
// Each new revision is told to the host (the event "revision") in the same
// turn that makes it, before the map is stored: every answer that could
// carry it is posted later on the same port, so the host has always been
// told a revision before an agent can hold it, and refuses an expected
// revision above the newest it was told (internal/host/revisions.go). A
// worker that dies before the write comes back below the host's floor, and
// reconciliation raises it (reconcile.ts).
import { EventRevision } from "../../protocol/generated";
import type { RevisionNotice } from "../../protocol/generated";
import type { NavigationDetails } from "../../chrome/api";
import type { HasChrome, HasLog, HasOwnership, Notifies } from "../capabilities";
import { whenReady } from "../when-ready";

export function watchRevisions(ctx: HasChrome & HasOwnership & Notifies & HasLog, ready: Promise<void>): void {
  const { chrome: api, ownership, log } = ctx;

  const bump = (tabId: number) =>
    whenReady(ready, log, "revision", async () => {
      const revision = ownership.bump(tabId);
      if (revision === undefined) return;
      const notice: RevisionNotice = { tab_id: tabId, revision };
      ctx.notify(EventRevision, notice);
      await ownership.persist();
    });

  // frameId 0 is the tab's top frame; a prerendered page commits in another
  // frame id and only counts once it is shown (as a new commit).
  const topFrame = (d: NavigationDetails) => {
    if (d.frameId === 0) bump(d.tabId);
  };
  api.webNavigation.onCommitted(topFrame);
  api.webNavigation.onHistoryStateUpdated(topFrame);
  api.webNavigation.onReferenceFragmentUpdated(topFrame);

  // Observed in Chromium 156: webNavigation reports navigations to this
  // extension's own pages but stays silent on another extension's
  // chrome-extension:// pages (notes/chromium.md), so there the URL change
  // reported by tabs.onUpdated stands in for the commit. Everywhere else it
  // is left to webNavigation, which would otherwise count twice.
  const own = `chrome-extension://${api.runtime.id}/`;
  api.tabs.onUpdated((tabId, change) => {
    const url = change.url;
    if (url !== undefined && url.startsWith("chrome-extension://") && !url.startsWith(own)) bump(tabId);
  });
}
