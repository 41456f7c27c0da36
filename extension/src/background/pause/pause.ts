// Beginning a Pause in the worker, the same from either path: the popup's
// button (popup/status.ts) and the host's pausing (`agenttab pause`, or
// the host following the popup). Source of truth: spec 001 ("stops new
// admissions, lets already-dispatched work settle, rejects waiting work as
// not started") and protocol/pause.go.
import { CodePaused } from "../../protocol/generated";
import type { HasAdoptions, HasPause } from "../capabilities";
import { Failure, failure } from "../native/failure";

/**
 * Closes admission at once and ends the adoption requests waiting for the
 * user: they are waiting work, not dispatched work, and would hold the
 * barrier up until their timeout (adopt.ts answers them paused).
 */
export async function beginPause(ctx: HasPause & HasAdoptions): Promise<void> {
  await ctx.pause.begin();
  ctx.adoptions.cancelAll();
}

/** Work refused because the user paused AgentTab; nothing of it ran. */
export function pausedFailure(message = "the user paused AgentTab; no browser work runs"): Failure {
  return failure(CodePaused, message);
}
