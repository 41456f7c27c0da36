// back and forward while the managed origin policy constrains navigation.
// Source of truth: spec 000 ("When constraints exist, AgentTab rejects
// history movement [on tab_only] because Chrome does not expose its
// destination for authorization before navigation; callers must navigate
// explicitly to an allowed URL") and DESIGN.md "Origin policy" ("on full
// tabs the destination is checked like a page-started navigation").
//
// The origin guard alone cannot check a history destination, observed in
// Chromium 156: a page restored from the back-forward cache makes no
// request, so Fetch never pauses it; and chrome.tabs.goBack skips entries
// Chrome marks skippable (added without a user gesture), so which entry it
// lands on is not known in advance (it refused with "Cannot find a next
// page in history" on a tab whose earlier entry AgentTab itself had
// opened). On a full tab the step reads the session history through the
// debugger, checks the adjacent entry, and moves to exactly that entry;
// the guard still checks every request the move makes (redirects).
import { CodeNavigationFailed, CodeOriginPolicyUnverifiable, OutcomeDispatched, OutcomeNotStarted, RouteTabOnly } from "../../protocol/generated";
import { fieldsOf, numField, strField } from "../cdp/read";
import type { HasOrigins, HasPages } from "../context";
import { Failure, failure } from "../native/failure";
import { routeOf } from "../pagework/route";
import type { Progress } from "./receipts";
import type { Done } from "./typing";

/**
 * The part of a step's StepEnv (steps.ts) a history move uses: steps.ts
 * calls moveInHistory, so naming StepEnv here would tie the two modules
 * in a circle (issue 10).
 */
export interface HistoryEnv {
  readonly ctx: HasPages & HasOrigins;
  readonly tabId: number;
}

export async function moveInHistory(env: HistoryEnv, progress: Progress, url: string, kind: "back" | "forward"): Promise<Done> {
  const { ctx, tabId } = env;
  if (routeOf(url) === RouteTabOnly) {
    throw failure(CodeOriginPolicyUnverifiable, `${kind} is refused on this browser page while the origin policy restricts navigation: Chrome does not say where it leads before it goes there`);
  }
  return ctx.pages.use(tabId, async (page) => {
    const history = await page.session.send("Page.getNavigationHistory");
    const entries = history["entries"];
    const at = numField(history, "currentIndex", "Page.getNavigationHistory") + (kind === "back" ? -1 : 1);
    const raw: unknown = Array.isArray(entries) ? entries[at] : undefined;
    if (raw === undefined) {
      throw new Failure(CodeNavigationFailed, OutcomeNotStarted, `the tab has no ${kind === "back" ? "previous" : "next"} page in its history`, "Check the tab's URL with browser_tabs, or navigate explicitly.");
    }
    const entry = fieldsOf(raw, "a history entry");
    const destination = strField(entry, "url", "a history entry");
    await ctx.origins.admit(destination);
    progress.dispatched = true;
    await page.session.send("Page.navigateToHistoryEntry", { entryId: numField(entry, "id", "a history entry") });
    return { outcome: OutcomeDispatched, note: `${kind} to ${destination}` };
  });
}
