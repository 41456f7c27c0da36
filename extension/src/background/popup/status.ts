// Answers the popup: its status request (the host connection, the Pause
// with what is still settling, and per task its label and owned-tab
// count) and its Pause and Resume buttons. Source of truth: spec 000/001
// (Pause is a barrier, not an optimistic toggle, persisted before it is
// reported; Resume reconciles ownership first, which only the host can
// drive) and DESIGN.md "Pause".
import { EventPauseRequested, EventResumeRequested } from "../../protocol/generated";
import type { HostState, StatusReply } from "../../shared/status";
import { isAdoptionAnswer, isPauseRequest, isStatusRequest } from "../../shared/status";
import type { HasAdoptions, HasChrome, HasOwnership, HasPause, Notifies } from "../capabilities";
import { beginPause } from "../pause/pause";

export function servePopup(ctx: HasChrome & HasOwnership & HasPause & HasAdoptions & Notifies, ready: Promise<void>, host: () => HostState): void {
  const reply = async (): Promise<StatusReply> => ({
    host: host(),
    pause: ctx.pause.phase(host().state === "connected"),
    settling: ctx.pause.inFlight,
    automation: await ctx.chrome.permissions.contains("scripting"),
    adoptions: ctx.adoptions.list().map((a) => ({ id: a.id, taskLabel: a.taskLabel, taskColor: a.taskColor, title: a.title, origin: a.origin })),
    tasks: ctx.ownership.taskIds().flatMap((id) => {
      const t = ctx.ownership.task(id);
      return t === undefined ? [] : [{ label: t.look.label, color: t.look.color, ownedTabs: t.tabs.size }];
    }),
  });
  ctx.chrome.runtime.onMessage((message) => {
    if (isStatusRequest(message)) return ready.then(reply);
    if (isAdoptionAnswer(message)) {
      ctx.adoptions.answer(message.id, message.allow);
      return ready.then(reply);
    }
    if (!isPauseRequest(message)) return undefined;
    return ready.then(async () => {
      if (message.paused) {
        // The extension stops admitting work at once (stored first) and
        // shows pausing; the host pauses too, waits for dispatched work to
        // settle, and says when the Pause is in force.
        await beginPause(ctx);
        ctx.notify(EventPauseRequested, {});
      } else if (host().state === "connected") {
        // The host reconciles ownership, then clears the Pause here.
        ctx.notify(EventResumeRequested, {});
      } else {
        // No host to reconcile with: it decides at its next handshake,
        // and stays paused if it was (DESIGN.md "Pause").
        await ctx.pause.set(false);
      }
      return await reply();
    });
  });
}
