// Beginning a Pause in the worker, the same from either path: the popup's
// button (popup/status.ts) and the host's pausing (`agenttab pause`, or
// the host following the popup). Source of truth: spec 001 ("stops new
// admissions, lets already-dispatched work settle, rejects waiting work as
// not started") and protocol/pause.go.
import { CodePaused, OutcomeNotStarted, PauseByDebuggerCancel, PauseByUser } from "../../protocol/generated";
import type { PauseReason } from "../../protocol/generated";
import type { HasAdoptions, HasPause } from "../capabilities";
import { Failure, failure } from "../native/failure";

/**
 * Closes admission at once and ends the adoption requests waiting for the
 * user: they are waiting work, not dispatched work, and would hold the
 * barrier up until their timeout (adopt.ts answers them paused).
 */
export async function beginPause(ctx: HasPause & HasAdoptions, reason: PauseReason = PauseByUser): Promise<void> {
  await ctx.pause.begin(reason);
  ctx.adoptions.cancelAll();
}

/** Work refused because the user paused AgentTab; nothing of it ran. */
export function pausedFailure(message = "the user paused AgentTab; no browser work runs"): Failure {
  return failure(CodePaused, message);
}

/** The refusal of work while paused, saying who paused and what undoes it. */
export function pauseRefusal(reason: PauseReason | undefined): Failure {
  if (reason !== PauseByDebuggerCancel) return pausedFailure();
  return new Failure(
    CodePaused,
    OutcomeNotStarted,
    "the user clicked Cancel on Chrome's debugging banner (\"AgentTab started debugging this browser\"), which pauses AgentTab; no browser work runs, and AgentTab does not attach again by itself",
    "Ask the user to press Resume in the AgentTab popup if they want you to continue, then retry; tell them the task is blocked until then.",
  );
}
