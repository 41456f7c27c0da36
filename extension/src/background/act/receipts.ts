// Step receipts. Source of truth: issue 3 ("The receipt lists every step
// with its outcome ... The batch stops at the first failed step; later
// steps are not_started") and DESIGN.md "Results, errors and outcomes".
import {
  CodeChromeError,
  CodeDebuggerUnavailable,
  CodeInternal,
  CodeStaleRef,
  OutcomeDispatched,
  OutcomeNotStarted,
  OutcomeStaged,
  OutcomeUnknown,
} from "../../protocol/generated";
import type { Step, StepReceipt } from "../../protocol/generated";
import { AgentError, FrameGone } from "../agent-client/errors";
import type { Clock } from "../clock";
import { CommandTimeout, DebuggerDetached, DialogOpened } from "../cdp/session";
import { Failure, failure } from "../native/failure";
import { errorText } from "../log";
import { dialogFailure } from "../pagework/page-work";

/**
 * How long a step may wait for its target to become actionable
 * (act/pointer.ts aim; ExtActParams.actionable_timeout_ms), on the
 * worker's clock.
 */
export interface Patience {
  clock: Clock;
  timeoutMs: number;
}

/** Whether a step has sent anything to the page yet: a failure after that is no longer not_started. */
export class Progress {
  /** Without patience (unit tests), a target that is not actionable is refused at once. */
  constructor(readonly patience?: Patience) {}

  dispatched = false;
  /** How long the step has waited for its targets so far (the receipt's waited_ms); its patience bounds the total. */
  waitedMs = 0;
  /**
   * When Chrome acknowledged the step's last input, where the step knows
   * it (a click's release): its navigation grace counts from there
   * (act/navigation.ts GRACE_MS), not from after the checks that follow.
   */
  inputEnded: number | undefined;
}

/** The receipt with how long its step waited for its target, if it did. */
export function withWait(receipt: StepReceipt, progress: Progress): StepReceipt {
  return progress.waitedMs > 0 ? { ...receipt, waited_ms: Math.round(progress.waitedMs) } : receipt;
}

export function notStarted(index: number, step: Step): StepReceipt {
  return { index, kind: step.kind, outcome: OutcomeNotStarted };
}

/** A failed step's receipt. */
export function failedReceipt(index: number, step: Step, failure: Failure): StepReceipt {
  return { index, kind: step.kind, outcome: failure.detail.outcome, error: failure.detail };
}

/**
 * Runs the steps in order and stops at the first failed one (a receipt
 * with an error) or staged one (spec 001: a batch stops at its first
 * staged action; the batch is not an error). Every later step gets a
 * not_started receipt.
 */
export async function runSteps(steps: Step[], run: (step: Step, index: number) => Promise<StepReceipt>): Promise<StepReceipt[]> {
  const out: StepReceipt[] = [];
  let stopped = false;
  for (const [index, step] of steps.entries()) {
    if (stopped) {
      out.push(notStarted(index, step));
      continue;
    }
    const receipt = await run(step, index);
    out.push(receipt);
    stopped = receipt.error !== undefined || receipt.outcome === OutcomeStaged;
  }
  return out;
}

/**
 * What a step's error means for its outcome: before anything was sent,
 * not_started; once input went out and the answer is missing, unknown
 * (never sent again).
 */
export function stepFailure(e: unknown, progress: Progress): Failure {
  if (e instanceof Failure) return e;
  const sent = progress.dispatched;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog, sent ? OutcomeDispatched : OutcomeNotStarted);
  if (e instanceof FrameGone && !sent) {
    return failure(CodeStaleRef, "the element's document went away (the frame navigated)");
  }
  if (e instanceof DebuggerDetached) {
    return failure(CodeDebuggerUnavailable, errorText(e), sent ? OutcomeUnknown : OutcomeNotStarted);
  }
  const code = e instanceof AgentError ? CodeInternal : CodeChromeError;
  const why = e instanceof CommandTimeout ? `Chrome did not answer in time: ${e.message}` : errorText(e);
  return new Failure(
    code,
    sent ? OutcomeUnknown : OutcomeNotStarted,
    sent ? `the step was sent, but its result is unknown: ${why}` : `the step could not start: ${why}`,
    sent ? "Take a new browser_snapshot to see what happened before repeating the step." : "Retry the step; if it keeps failing, take a new browser_snapshot.",
  );
}
