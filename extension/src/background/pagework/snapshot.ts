// The host's "snapshot": the page's text with refs, plus an optional
// screenshot, from the route that serves the tab (page-route.ts: the
// debugger's debugger-snapshot.ts, or the scripting route's top-frame
// snapshot). Source of truth: issue 3 (browser_snapshot) and
// protocol/page.go (ExtSnapshotParams/Result); the challenge member:
// issue 12 (challenges/scan.ts).
import type { ExtSnapshotParams, ExtSnapshotResult } from "../../protocol/generated";
import { scanChallenges } from "../challenges/scan";
import type { ScanEnv } from "../challenges/scan";
import { onRoute } from "./choose-route";
import { admitPageWork, ownedPage, readFailure } from "./page-work";

export async function snapshot(ctx: ScanEnv, p: ExtSnapshotParams): Promise<ExtSnapshotResult> {
  const { url } = await ownedPage(ctx, p.task_id, p.tab_id);
  await admitPageWork(ctx, p.tab_id, url);
  return onRoute(ctx, p.tab_id, async (route) => {
    const result = await route.snapshot(p);
    // The same route's top document, right after its snapshot: one call.
    const challenge = await scanChallenges(ctx, { tabId: p.tab_id, url, revision: result.revision, context: "snapshot", route });
    return challenge === undefined ? result : { ...result, challenge };
  }).catch((e: unknown) => {
    throw readFailure(e);
  });
}
