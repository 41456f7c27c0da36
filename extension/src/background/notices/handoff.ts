// The host's "handoff" (browser_handoff's extension half). Source of truth:
// protocol/handoff.go, spec 000 (handoff, notices, idle state; it works on
// tab_only tabs, which have no page access) and spec 001 (one advisory
// notice per task tab). It records, closes or lists notices, with the
// origin Chrome reports for the tab, and never focuses anything: only the
// popup's Open tab does, on the user's click (popup/notice-action.ts).
// Resolve and dismiss are refused while the user is on the tab
// (blackout.ts).
import {
  CodeInvalidParams,
  CodeNoticeNotFound,
  DefaultNoticeSeconds,
  HandoffDismiss,
  HandoffRequest,
  HandoffResolve,
  HandoffStatus,
  IdleThresholdSeconds,
  MaxNoticeSeconds,
  NoticeDismissed,
  NoticeResolved,
} from "../../protocol/generated";
import type { ExtHandoffParams, ExtHandoffResult, IdleState } from "../../protocol/generated";
import type { HasChrome, HasLog, HasNotices, HasOwnership, Notifies } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasPages } from "../context";
import { errorText } from "../log";
import { failure } from "../native/failure";
import { notOwned, ownedPage } from "../pagework/page-work";
import { shownOrigin } from "../tabs/shown-origin";
import { refuseWhileHandedOff } from "./blackout";

export type HandoffEnv = HasChrome & HasOwnership & HasPages & HasChallenges & HasNotices & Notifies & HasLog;

export async function handoff(ctx: HandoffEnv, p: ExtHandoffParams): Promise<ExtHandoffResult> {
  const answer = async (r: Omit<ExtHandoffResult, "user_idle_state">): Promise<ExtHandoffResult> => ({ ...r, user_idle_state: await idleState(ctx) });
  switch (p.action) {
    case HandoffRequest: {
      if (p.reason === undefined) throw failure(CodeInvalidParams, "a handoff request needs a reason");
      // Owned and still in its group (a lost tab is revoked); no page
      // access is needed, so a tab_only tab takes a notice too.
      const { tab } = await ownedPage(ctx, p.task_id, p.tab_id ?? 0);
      const record = await ctx.notices.request({
        taskId: p.task_id,
        tabId: tab.id,
        reason: p.reason,
        message: p.message ?? "",
        origin: shownOrigin(tab),
        expiresInMs: lifetime(p.expires_in_ms),
      });
      return answer({ notice: ctx.notices.ext(record) });
    }
    case HandoffStatus: {
      const tabId = p.tab_id || undefined;
      if (tabId !== undefined && ctx.ownership.owner(tabId)?.taskId !== p.task_id) throw notOwned();
      return answer({ notices: ctx.notices.status(p.task_id, tabId).map((n) => ctx.notices.ext(n)) });
    }
    case HandoffResolve:
    case HandoffDismiss: {
      const id = p.notice_id ?? "";
      const tabId = p.tab_id || undefined;
      const notFound = () => failure(CodeNoticeNotFound, `${JSON.stringify(id)} is not the open notice of a tab of this task (replaced by a newer request, already closed, or never this task's)`);
      const target = ctx.notices.closable(p.task_id, id, tabId);
      if (target === undefined) throw notFound();
      // While the user is on the tab the agent cannot have verified the
      // page (the blackout), and closing would end the blackout under them.
      await refuseWhileHandedOff(ctx, target.tabId, "its notice stays open until they leave it, so that you can check the page before you resolve or dismiss it");
      const closed = await ctx.notices.close(p.task_id, id, tabId, p.action === HandoffResolve ? NoticeResolved : NoticeDismissed);
      if (closed === undefined) throw notFound();
      return answer({ notice: ctx.notices.ext(closed) });
    }
  }
}

/** The reminder's lifetime: the agent's, within (0, MaxNoticeSeconds], else the default. */
function lifetime(ms: number | undefined): number {
  if (ms === undefined || ms <= 0) return DefaultNoticeSeconds * 1000;
  return Math.min(ms, MaxNoticeSeconds * 1000);
}

/**
 * chrome.idle's coarse state with the spec's 60-second threshold; it gates
 * nothing, so a failure to read it answers "active" rather than fail the
 * call (logged).
 */
async function idleState(ctx: HasChrome & HasLog): Promise<IdleState> {
  try {
    return await ctx.chrome.idle.queryState(IdleThresholdSeconds);
  } catch (e) {
    ctx.log.warn(`idle.queryState: ${errorText(e)}`);
    return "active";
  }
}
