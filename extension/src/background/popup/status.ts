// Answers the popup: its status request (the host connection, the Pause
// with who paused and what is still settling, per task its label,
// owned-tab count, connection and idle time, the adoption requests, staged
// actions and notices waiting for the user, and the YOLO switch) and its
// buttons: Pause and Resume, Allow/Deny, Approve/Deny, Open tab/Dismiss,
// the YOLO switch and End task. Every button is answered with a fresh
// status. Source of truth: spec 000/001 (Pause is a barrier, not an
// optimistic toggle, persisted before it is reported; Resume reconciles
// ownership first, which only the host can drive), DESIGN.md "Pause" and
// issue 12. It answers the popup page only, never a page's content script.
import { EventPauseRequested, EventResumeRequested, PauseByUser } from "../../protocol/generated";
import type { PauseRequestedParams } from "../../protocol/generated";
import type { MessageSender } from "../../chrome/api";
import type { StatusReply } from "../../shared/status";
import { isAdoptionAnswer, isEndTask, isNoticeAction, isPauseRequest, isStageReview, isStatusRequest, isYoloSwitch } from "../../shared/status";
import { beginPause } from "../pause/pause";
import type { PopupCtx, PopupDeps } from "./env";
import { noticeAction } from "./notice-action";
import { reviewStage, stageSummaries, switchYolo } from "./stages";
import { endTask, taskSummaries } from "./tasks";

export function servePopup(ctx: PopupCtx, ready: Promise<void>, deps: PopupDeps): void {
  const { host } = deps;
  const reply = async (): Promise<StatusReply> => {
    const [automation, tasks, stages] = await Promise.all([ctx.chrome.permissions.contains("scripting"), taskSummaries(ctx, host), stageSummaries(ctx)]);
    const now = ctx.clock.now();
    const r: StatusReply = {
      host: host.state(),
      pause: ctx.pause.phase(host.state().state === "connected"),
      settling: ctx.pause.inFlight,
      automation,
      adoptions: ctx.adoptions.list().map((a) => ({ id: a.id, taskLabel: a.taskLabel, taskColor: a.taskColor, title: a.title, origin: a.origin })),
      tasks,
      yolo: ctx.reviews.yolo,
      stages,
      notices: ctx.notices.visible().map((n) => {
        const look = ctx.ownership.task(n.taskId)?.look;
        return { noticeId: n.noticeId, taskLabel: look?.label ?? "", taskColor: look?.color ?? "grey", reason: n.reason, message: n.message, origin: n.origin, ageMs: Math.max(0, now - n.createdAt) };
      }),
    };
    const reason = ctx.pause.reason;
    if (reason !== undefined) r.pauseReason = reason;
    return r;
  };
  /** Runs a button's work once the worker is ready, then answers the status. */
  const then = (work: () => Promise<unknown>): Promise<StatusReply> => ready.then(work).then(reply);
  ctx.chrome.runtime.onMessage((message, sender) => {
    if (!fromPopup(ctx, sender)) return undefined;
    if (isStatusRequest(message)) return ready.then(reply);
    if (isAdoptionAnswer(message)) return then(async () => ctx.adoptions.answer(message.id, message.allow));
    if (isStageReview(message)) return then(() => reviewStage(ctx, host, message.handle, message.approve));
    if (isNoticeAction(message)) return then(() => noticeAction(ctx, deps, message.noticeId, message.action));
    if (isYoloSwitch(message)) return then(() => switchYolo(ctx, deps, message.on));
    if (isEndTask(message)) return then(() => endTask(ctx, host, message.taskId, message.closeTabs));
    if (isPauseRequest(message)) return then(() => pauseButton(ctx, deps, message.paused));
    return undefined;
  });
}

/**
 * Only the extension's own popup page may press its buttons or read its
 * status. Every extension context can send runtime messages, including the
 * scripting route's page agent, a content script in the driven page's
 * isolated world: Chrome reports its sender with the page's URL (its frame
 * is the page's), which can never be popup.html, since the manifest makes
 * no page web-accessible. The popup's page may run in a tab (the user, or
 * e2e, can open popup.html there), so the tab is not what tells them apart.
 */
function fromPopup(ctx: PopupCtx, sender: MessageSender): boolean {
  return sender.id === ctx.chrome.runtime.id && sender.url === ctx.chrome.runtime.popupUrl;
}

async function pauseButton(ctx: PopupCtx, { host }: PopupDeps, paused: boolean): Promise<void> {
  if (paused) {
    // The extension stops admitting work at once (stored first) and
    // shows pausing; the host pauses too, waits for dispatched work to
    // settle, and says when the Pause is in force.
    await beginPause(ctx);
    const params: PauseRequestedParams = { reason: PauseByUser };
    ctx.notify(EventPauseRequested, params);
  } else if (host.state().state === "connected") {
    // The host reconciles ownership, then clears the Pause here.
    ctx.notify(EventResumeRequested, {});
  } else {
    // No host to reconcile with: it decides at its next handshake, and
    // stays paused if it was (DESIGN.md "Pause").
    await ctx.pause.set(false);
  }
}
