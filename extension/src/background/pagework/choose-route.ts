// Which page route serves a call (page-route.ts), chosen in one place for
// snapshots, waits and steps. Source of truth: spec 000 ("Chrome can
// refuse chrome.debugger on an ordinary page ... AgentTab then serves
// top-frame page work through its scripting route", which needs the
// optional scripting permission the user grants with the automation
// switch, DESIGN.md "Automation switch").
import { CodeDebuggerUnavailable } from "../../protocol/generated";
import type { GestureEnv } from "../act/child-gesture";
import type { HasChrome, HasClock, HasNotices } from "../capabilities";
import type { HasPages } from "../context";
import { Failure } from "../native/failure";
import { DebuggerRoute } from "./debugger-route";
import type { PageRoute } from "./page-route";
import { ScriptingRoute } from "./scripting-route";

/**
 * What page work on a route uses of the worker's Context (context.ts):
 * the tab's page and either route's, whose gestures take popups in
 * (act/child-gesture.ts), and the notices its gate reads (the handoff
 * blackout, page-work.ts). Snapshots, waits and steps take this.
 */
export type RouteEnv = GestureEnv & HasPages & HasClock & HasNotices;

/** Whether the user turned automation on: the scripting route may serve. */
export function scriptingGranted(ctx: HasChrome): Promise<boolean> {
  return ctx.chrome.permissions.contains("scripting");
}

/**
 * Whether a failure is Chrome refusing the debugger (at the attach, or
 * taking it back during a command: cdp/session.ts), the scripting route's
 * cue.
 */
export function debuggerRefused(e: unknown): e is Failure {
  return e instanceof Failure && e.detail.code === CodeDebuggerUnavailable;
}

/**
 * Runs work on the tab's page through the debugger route. When Chrome
 * refuses the debugger and nothing was dispatched yet (undone), work runs
 * again, from the start, on the scripting route if the user granted it;
 * otherwise the refusal stands. The caller checked ownership and page
 * access.
 */
export async function onRoute<T>(ctx: RouteEnv, tabId: number, work: (route: PageRoute) => Promise<T>, undone: () => boolean = () => true): Promise<T> {
  try {
    return await ctx.pages.use(tabId, (page) => work(new DebuggerRoute(ctx, page)));
  } catch (e) {
    if (!debuggerRefused(e) || !undone() || !(await scriptingGranted(ctx))) throw e;
    return work(new ScriptingRoute(ctx, tabId));
  }
}
