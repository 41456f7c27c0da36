// The host's "snapshot": the page's text with refs, plus an optional
// screenshot, from the route that serves the tab (page-route.ts: the
// debugger's debugger-snapshot.ts, or the scripting route's top-frame
// snapshot). Source of truth: issue 3 (browser_snapshot) and
// protocol/page.go (ExtSnapshotParams/Result).
import type { ExtSnapshotParams, ExtSnapshotResult } from "../../protocol/generated";
import { onRoute } from "./choose-route";
import type { RouteEnv } from "./choose-route";
import { ownedPage, readFailure, requirePageAccess } from "./page-work";

export async function snapshot(ctx: RouteEnv, p: ExtSnapshotParams): Promise<ExtSnapshotResult> {
  const { url } = await ownedPage(ctx, p.task_id, p.tab_id);
  requirePageAccess(ctx, p.tab_id, url);
  return onRoute(ctx, p.tab_id, (route) => route.snapshot(p)).catch((e: unknown) => {
    throw readFailure(e);
  });
}
