// The host's "wait" (browser_wait) and the wait step of a batch. Source of
// truth: issue 3 and spec 000: load and URL conditions follow
// webNavigation (commits, completions, same-document changes, errors) as
// well as polling; text and ref conditions ask the page agent every 100 ms
// and whenever the page reports progress. browser_wait's result carries the
// tab's challenge member (issue 12): one that went during the wait was
// resolved by it. A wait admitted as page work ends handoff_in_progress as
// soon as the user comes onto the tab for a handoff (notices/blackout.ts):
// every poll rechecks, not only the start.
import { CodeChromeError, RouteDebugger } from "../../protocol/generated";
import type { ExtWaitResult, WaitCondition } from "../../protocol/generated";
import { checkWait, waitState } from "../act/validate";
import type { HasChrome, HasClock, HasNotices, HasOwnership } from "../capabilities";
import { scanChallenges } from "../challenges/scan";
import { refuseWhileHandedOff } from "../notices/blackout";
import type { ScanEnv } from "../challenges/scan";
import { onRoute } from "./choose-route";
import { matchUrl } from "./glob";
import type { PageRoute } from "./page-route";
import type { Probe, Seen } from "./wait-seen";
import { downloadProbe, networkIdleProbe } from "./wait-net";
import { admitPageWork, notOwned, ownedPage, readFailure } from "./page-work";

const POLL_MS = 100;

/** scan: whether the result carries the challenge member (browser_wait; a batch's wait step leaves it to the batch's result). */
export async function waitFor(ctx: ScanEnv, taskId: string, tabId: number, c: WaitCondition, scan = true): Promise<ExtWaitResult> {
  const { timeoutMs, idleMs } = checkWait(c, "condition");
  const started = ctx.clock.now();
  const first = await ownedPage(ctx, taskId, tabId);
  const loop = (probe: Probe, pageWork = false) => poll(ctx, taskId, tabId, timeoutMs, probe, pageWork);
  // Page-content waits run on the route that serves the tab (choose-route.ts).
  const onPage = (work: (route: PageRoute) => Promise<Seen>) =>
    onRoute(ctx, tabId, work).catch((e: unknown) => {
      throw readFailure(e, CodeChromeError);
    });
  let outcome: Seen;
  let servedBy: string | undefined;
  switch (c.until) {
    case "text":
    case "ref": {
      await admitPageWork(ctx, tabId, first.url);
      const want = c.until === "ref" ? waitState(c, "condition") : "visible";
      outcome = await onPage(async (route) => {
        servedBy = route.name;
        return loop(c.until === "text" ? route.textProbe(c.text ?? "", c.gone === true) : await route.refProbe(c.ref ?? "", want), true);
      });
      break;
    }
    case "navigation": {
      let navigated = false;
      const mine = (d: { tabId: number; frameId: number }) => {
        if (d.tabId === tabId && d.frameId === 0) navigated = true;
      };
      const stops = [ctx.chrome.webNavigation.onCommitted(mine), ctx.chrome.webNavigation.onHistoryStateUpdated(mine), ctx.chrome.webNavigation.onReferenceFragmentUpdated(mine)];
      try {
        outcome = await loop(async () => ({ ok: navigated, seen: navigated ? "a navigation committed" : "no navigation since the wait began" }));
      } finally {
        for (const s of stops) s();
      }
      break;
    }
    case "load":
      outcome = await loop(async () => {
        const tab = await ctx.chrome.tabs.get(tabId);
        return { ok: tab?.status === "complete", seen: tab?.status === "complete" ? "loaded" : "loading" };
      });
      break;
    case "url": {
      const pattern = c.url ?? "";
      outcome = await loop(async () => {
        const url = (await ctx.chrome.tabs.get(tabId))?.url ?? "";
        return { ok: matchUrl(pattern, url), seen: url };
      });
      break;
    }
    case "network_idle":
      await admitPageWork(ctx, tabId, first.url);
      servedBy = RouteDebugger;
      outcome = await onPage((route) => loop(networkIdleProbe(route.debugger("a network_idle wait"), idleMs), true));
      break;
    case "download":
      await admitPageWork(ctx, tabId, first.url);
      servedBy = RouteDebugger;
      // Attribution needs the tab's debugger session (Page.downloadWillBegin):
      // attached for the wait, and refused debugger_unavailable where Chrome refuses it.
      outcome = await onPage((route) => {
        route.debugger("a download wait");
        return loop(downloadProbe(ctx.pages.downloads, tabId, started), true);
      });
      break;
  }
  const end = await ownedPage(ctx, taskId, tabId);
  const challenge = scan ? await scanChallenges(ctx, { tabId, url: end.url, revision: end.owned.revision, context: "wait" }) : undefined;
  return {
    satisfied: outcome.ok,
    elapsed_ms: ctx.clock.now() - started,
    url: end.url,
    title: end.tab.title ?? "",
    revision: end.owned.revision,
    last_seen: outcome.seen,
    ...(outcome.download === undefined ? {} : { download: outcome.download }),
    ...(servedBy === undefined ? {} : { served_by: servedBy }),
    ...(challenge === undefined ? {} : { challenge }),
  };
}

/**
 * Asks probe until it holds or timeoutMs passes: every POLL_MS, and at
 * once when Chrome reports progress on the tab (a commit, a load, a URL or
 * status change). pageWork: the wait was admitted as page work, so each
 * round first checks the blackout.
 */
function poll(ctx: HasChrome & HasOwnership & HasNotices & HasClock, taskId: string, tabId: number, timeoutMs: number, probe: Probe, pageWork: boolean): Promise<Seen> {
  const api = ctx.chrome;
  return new Promise<Seen>((resolve, reject) => {
    let timedOut = false;
    let wake: () => void = () => undefined;
    const nudge = (id: number) => {
      if (id === tabId) wake();
    };
    const stops = [
      ctx.clock.after(timeoutMs, () => {
        timedOut = true;
        wake();
      }),
      api.tabs.onUpdated((id) => nudge(id)),
      api.webNavigation.onCommitted((d) => nudge(d.tabId)),
      api.webNavigation.onHistoryStateUpdated((d) => nudge(d.tabId)),
      api.webNavigation.onReferenceFragmentUpdated((d) => nudge(d.tabId)),
      api.webNavigation.onDOMContentLoaded((d) => nudge(d.tabId)),
      api.webNavigation.onCompleted((d) => nudge(d.tabId)),
      api.webNavigation.onErrorOccurred((d) => nudge(d.tabId)),
    ];
    const finish = (f: () => void) => {
      for (const s of stops) s();
      f();
    };
    const round = async (): Promise<void> => {
      for (;;) {
        if (ctx.ownership.owner(tabId)?.taskId !== taskId) throw notOwned();
        if (pageWork) await refuseWhileHandedOff(ctx, tabId, "AgentTab does not read the page meanwhile, so the wait ended");
        const seen = await probe();
        if (seen.ok || timedOut) return finish(() => resolve(seen));
        await new Promise<void>((next) => {
          const cancel = ctx.clock.after(POLL_MS, () => next());
          wake = () => {
            cancel();
            wake = () => undefined;
            next();
          };
        });
      }
    };
    round().catch((e: unknown) => finish(() => reject(e)));
  });
}
