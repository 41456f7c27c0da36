// One scan for bot challenges after a snapshot, an act batch, a wait or a
// commit: the page agent's challenges() in the tab's top document (one
// call), recorded by Challenges. Source of truth: issue 12 ("A task-owned
// tab that shows one reports a challenge member on snapshot, act and wait
// results").
import type { Challenge } from "../../protocol/generated";
import type { ChallengeSighting } from "../../shared/page-agent";
import { errorText } from "../log";
import type { HasLog } from "../capabilities";
import { onRoute } from "../pagework/choose-route";
import type { RouteEnv } from "../pagework/choose-route";
import type { PageRoute } from "../pagework/page-route";
import { admitPageWork } from "../pagework/page-work";
import type { HasChallenges, ScanContext } from "./challenges";

/** What a scan uses of the worker's Context: a page route's (which holds the notices: a challenge that goes while the tab has an open notice was resolved by the handoff). */
export type ScanEnv = RouteEnv & HasChallenges & HasLog;

/** Where the scan happens: a route the caller already holds, or the tab's (chosen as page work chooses it). */
export interface ScanAt {
  tabId: number;
  /** The tab's URL as Chrome reports it now. */
  url: string;
  revision: number;
  context: ScanContext;
  route?: PageRoute;
}

/**
 * The tab's challenge member after a scan. Only a page that admits page
 * work is scanned (page-work.ts admitPageWork): not a browser-owned page,
 * an unchecked local file, or one the human is on for a handoff. A scan
 * that fails answers no member and changes no record: the result it
 * rides on is the call's, and the next scan finds what this one missed.
 */
export async function scanChallenges(ctx: ScanEnv, at: ScanAt): Promise<Challenge | undefined> {
  let sightings: ChallengeSighting[];
  try {
    await admitPageWork(ctx, at.tabId, at.url);
  } catch {
    return undefined;
  }
  try {
    const scan = async (route: PageRoute) => (await route.top()).challenges();
    sightings = at.route === undefined ? await onRoute(ctx, at.tabId, scan) : await scan(at.route);
  } catch (e) {
    ctx.log.info(`the challenge scan of tab ${at.tabId} failed: ${errorText(e)}`);
    return undefined;
  }
  return ctx.challenges.observe(at.tabId, at.url, sightings, at.context, at.revision, ctx.notices.openFor(at.tabId));
}
