// The popup's review of staged actions and its YOLO switch. Source of
// truth: spec 000 (Commit, YOLO mode: on by default, switched in the popup
// only; turning it on discards pending staged actions) and
// protocol/commit.go. The host holds each stage's state: Approve and Deny
// are asked of it (stage_review) and the popup entry follows its answer;
// the switch is stored here (review/reviews.ts), and turning it on drops
// every entry, then asks the host to discard the stages it holds (yolo;
// the hello carries the switch to a host that was away).
import { NativeStageReview, NativeYolo, StageApproved, StageDenied } from "../../protocol/generated";
import type { StageReviewParams, YoloParams } from "../../protocol/generated";
import type { StageSummary } from "../../shared/status";
import { isFields } from "../fields";
import { errorText } from "../log";
import type { PopupCtx, PopupDeps, PopupHost } from "./env";

/** How long a review or the switch waits for the host. */
export const REVIEW_MS = 5_000;

export async function stageSummaries(ctx: PopupCtx): Promise<StageSummary[]> {
  const now = ctx.clock.now();
  return (await ctx.reviews.list()).map((e) => {
    const look = ctx.ownership.task(e.taskId)?.look;
    return {
      handle: e.handle,
      taskLabel: look?.label ?? "",
      taskColor: look?.color ?? "grey",
      effect: e.effect,
      control: e.control,
      origin: e.origin,
      fields: e.fields,
      state: e.state,
      expiresInMs: Math.max(0, e.expiresAt - now),
    };
  });
}

/**
 * The user's Approve or Deny. The host decides: approved or denied marks
 * the entry; any other state (expired, consumed, discarded) or a stage it
 * does not know removes it. Without an answer the entry stays as it was.
 */
export async function reviewStage(ctx: PopupCtx, host: PopupHost, handle: string, approve: boolean): Promise<void> {
  if (!ctx.reviews.has(handle)) return;
  const params: StageReviewParams = { review_handle: handle, approve };
  let state: unknown;
  try {
    const a = await host.ask(NativeStageReview, params, REVIEW_MS);
    state = "result" in a && isFields(a.result) ? a.result["state"] : undefined;
  } catch (e) {
    ctx.log.warn(`stage review: ${errorText(e)}`);
    return;
  }
  if (state === StageApproved || state === StageDenied) await ctx.reviews.markReviewed(handle, state === StageApproved);
  else await ctx.reviews.remove(handle);
}

/** The YOLO switch: stored behind the global barrier (no step is mid-classification), then told to the host. */
export async function switchYolo(ctx: PopupCtx, deps: PopupDeps, on: boolean): Promise<void> {
  await deps.scheduler.global(() => ctx.reviews.setYolo(on));
  const params: YoloParams = { on };
  try {
    const a = await deps.host.ask(NativeYolo, params, REVIEW_MS);
    if ("error" in a) ctx.log.warn(`YOLO switch: the host refused: ${JSON.stringify(a.error)}`);
  } catch (e) {
    // The next hello carries the switch.
    ctx.log.info(`YOLO switch: ${errorText(e)}`);
  }
}
