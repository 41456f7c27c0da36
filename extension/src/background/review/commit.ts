// The extension's half of browser_commit: an approved stage's one step,
// rechecked and run. Source of truth: protocol/commit.go (ExtCommitParams)
// and issue 12: the host found the stage, checked its state, ownership and
// revision floor and marked it consumed before sending this; the extension
// rechecks what it alone can see, then runs the step through act's step
// runner without classifying it again (act/prepare.ts compares the target
// and the preview, recomputed as review/stage.ts made them, with the
// stage and the entry the human approved instead) and answers like act,
// with one receipt.
//
// The checks before the step fail the call (a native error, not_started,
// like act's stale revision): not_owned, stage_stale, stage_discarded,
// browser_restricted_origin, handoff_in_progress. Those at the target (stage_target_changed,
// challenge_present, stale_ref, not actionable) are the receipt's error,
// not_started, like any step's.
import { CodeStageDiscarded, CodeStageStale } from "../../protocol/generated";
import type { ExtActResult, ExtCommitParams } from "../../protocol/generated";
import { actResult } from "../act/act";
import type { ActContext } from "../act/act";
import { runStep } from "../act/steps";
import type { StepEnv } from "../act/steps";
import { checkSteps } from "../act/validate";
import { failure } from "../native/failure";
import { admitPageWork, ownedPage } from "../pagework/page-work";
import { previewDigest } from "./stage";

export async function commitStage(ctx: ActContext, p: ExtCommitParams): Promise<ExtActResult> {
  checkSteps([p.step]);
  // The review handle no longer names anything the human can see: YOLO
  // mode went on, the human denied it, or its task ended.
  const entry = await ctx.reviews.entryOf(p.review_handle_digest);
  if (entry === undefined) throw failure(CodeStageDiscarded, "the stage is no longer held for review in the browser (YOLO mode was turned on, or the task ended)");
  // The host consumed the stage before sending this: whatever happens
  // now, the popup's entry goes.
  try {
    const { owned, url } = await ownedPage(ctx, p.task_id, p.tab_id);
    if (owned.revision !== p.expected_page_revision) {
      throw failure(CodeStageStale, `the page is at revision ${owned.revision}, not the staged ${p.expected_page_revision}: it navigated since`);
    }
    // A browser-owned page cannot be read, so its target cannot be
    // rechecked; closing the tab needs no page (spec 000: a staged close
    // stays committable on a tab_only tab).
    if (p.step.kind !== "close") await admitPageWork(ctx, p.tab_id, url);
    const env: StepEnv = {
      ctx,
      taskId: p.task_id,
      tabId: p.tab_id,
      popups: [],
      actionableMs: p.actionable_timeout_ms ?? 0,
      commit: { handle: entry.handle, effect: p.effect, fingerprint: p.fingerprint, previewDigest: await previewDigest(entry.handle, entry) },
    };
    const receipt = await runStep(env, p.step, 0);
    return await actResult(ctx, env, owned, [receipt]);
  } finally {
    await ctx.reviews.remove(entry.handle);
  }
}
