// The scroll step, on either route: the page agent scrolls the element or
// the page and reports where it ended (issue 3: a scroll is confirmed when
// the position changed). A ref with no deltas scrolls it into view.
import { OutcomeConfirmed, OutcomeDispatched } from "../../protocol/generated";
import type { Step } from "../../protocol/generated";
import type { AgentClient } from "../agent-client/client";
import { notActionable } from "./pointer";
import type { Progress } from "./receipts";
import type { Done } from "./typing";

/** agent: the page agent of the frame the step works in. */
export async function scrollWith(agent: Pick<AgentClient, "target" | "scrollBy">, progress: Progress, step: Step): Promise<Done> {
  const dx = step.delta_x ?? 0;
  const dy = step.delta_y ?? 0;
  const r = step.ref;
  if (r !== undefined && dx === 0 && dy === 0) {
    progress.dispatched = true;
    const info = await agent.target(r);
    if (!info.ok) throw notActionable(r, info);
    return { outcome: OutcomeConfirmed, note: `${info.description || r} is in view` };
  }
  const before = await agent.scrollBy(r ?? null, 0, 0);
  progress.dispatched = true;
  const after = await agent.scrollBy(r ?? null, dx, dy);
  const what = r ?? "the page";
  if (after.x !== before.x || after.y !== before.y) {
    return { outcome: OutcomeConfirmed, note: `scrolled ${what} to ${Math.round(after.x)},${Math.round(after.y)}` };
  }
  return { outcome: OutcomeDispatched, note: `${what} did not move (already at its end, or not scrollable)` };
}
