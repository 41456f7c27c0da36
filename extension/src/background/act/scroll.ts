// The scroll step, on either route: the page agent scrolls the element or
// the page and reports where it ended (issue 3: a scroll is confirmed when
// the position changed). A ref with no deltas scrolls it into view.
import { OutcomeConfirmed, OutcomeDispatched } from "../../protocol/generated";
import type { Step } from "../../protocol/generated";
import { position, targetInfo } from "../cdp/agent";
import { notActionable } from "./pointer";
import type { Progress } from "./receipts";
import type { Done } from "./typing";

/** Calls a page agent function in the frame the step works in. */
export type AgentCall = (name: string, args: unknown[]) => Promise<unknown>;

export async function scrollWith(call: AgentCall, progress: Progress, step: Step): Promise<Done> {
  const dx = step.delta_x ?? 0;
  const dy = step.delta_y ?? 0;
  const r = step.ref;
  if (r !== undefined && dx === 0 && dy === 0) {
    progress.dispatched = true;
    const info = targetInfo(await call("target", [r]));
    if (!info.ok) throw notActionable(r, info);
    return { outcome: OutcomeConfirmed, note: `${info.description || r} is in view` };
  }
  const before = position(await call("scrollBy", [r ?? null, 0, 0]));
  progress.dispatched = true;
  const after = position(await call("scrollBy", [r ?? null, dx, dy]));
  const what = r ?? "the page";
  if (after.x !== before.x || after.y !== before.y) {
    return { outcome: OutcomeConfirmed, note: `scrolled ${what} to ${Math.round(after.x)},${Math.round(after.y)}` };
  }
  return { outcome: OutcomeDispatched, note: `${what} did not move (already at its end, or not scrollable)` };
}
