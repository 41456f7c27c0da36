// A gesture with the window.open trap around it (open-trap.ts): what the
// page asked to open becomes background tabs of the task (children.ts),
// reported to the steps watching the tab. The trap is installed by the
// route that serves the gesture: through the debugger, or through
// chrome.scripting on the scripting route.
import { CodeChromeError, OutcomeNotStarted } from "../../protocol/generated";
import type { HasChrome, HasLog, HasOwnership, Notifies } from "../capabilities";
import type { HasChildren, HasOrigins } from "../context";
import { Failure } from "../native/failure";
import { notOwned, openChild } from "../tabs/children";
import { MAX_POPUPS, trapError } from "./open-trap";
import type { Trap } from "./open-trap";

/**
 * What a trapped gesture uses of the worker's Context (context.ts): the
 * focus guard and the registry of the children, the log, and what taking
 * a child in uses (children.ts openChild).
 */
export type GestureEnv = HasChrome & HasOwnership & HasChildren & HasOrigins & Notifies & HasLog;

/**
 * Runs gesture with the trap around it. Without the trap Chrome opens a
 * popup itself and children.ts still takes it into the task, so on the
 * debugger route a failed installation is only logged; required refuses
 * the gesture instead (the scripting route, where such a popup opens as
 * the active tab: observed in Chromium 156).
 *
 * check runs while the trap is being armed: the checks before input,
 * which dispatch nothing (a click's two looks, act/pointer.ts aim), so
 * arming adds no round trip of its own (issue 10). A check that refuses
 * ends the step before any input; what the page asked to open meanwhile
 * is taken in as after a gesture. gesture is told whether the trap is
 * armed: its collection, a call into the same frame after the input,
 * then also shows that the page ran its handlers for that input.
 */
export async function trapped<C, T>(
  ctx: GestureEnv,
  tabId: number,
  install: () => Promise<Trap>,
  check: () => Promise<C>,
  gesture: (checked: C, armed: boolean) => Promise<T>,
  required = false,
): Promise<T> {
  const arming: Promise<Trap | undefined> = install().catch((e: unknown) => {
    if (required) throw new Failure(CodeChromeError, OutcomeNotStarted, `${trapError(e)}; the gesture was not dispatched`, "Take a new browser_snapshot and retry.");
    ctx.log.warn(trapError(e));
    return undefined;
  });
  // Read in finally whatever happens first; until then a refusal must not count as unhandled.
  arming.catch(() => undefined);
  try {
    const checked = await check();
    const trap = await arming;
    // A pressed mouse raises an unfocused window (focus-guard.ts): the
    // focus that window takes during the gesture is given back.
    const windowId = ctx.ownership.owner(tabId)?.tab.windowId;
    const released = windowId === undefined ? undefined : ctx.children.focus?.gesture(windowId);
    try {
      return await gesture(checked, trap !== undefined);
    } finally {
      released?.();
    }
  } finally {
    // A gesture that navigated the frame or opened a dialog leaves nothing
    // to collect (the trap went with the document, or removes itself).
    const trap = await arming.catch(() => undefined);
    const requests = (await trap?.collect().catch(() => [])) ?? [];
    requests.forEach((r, i) => {
      const work = i < MAX_POPUPS ? openChild(ctx, tabId, r.url) : Promise.resolve(notOwned(-1, r.url, `one gesture opens at most ${MAX_POPUPS} popups`));
      ctx.children.track(tabId, work);
    });
  }
}
