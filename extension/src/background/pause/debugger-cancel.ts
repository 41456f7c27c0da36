// The Cancel on Chrome's debugging banner ("AgentTab started debugging this
// browser") is the user's Pause. Source of truth: protocol/pause.go
// (PauseByDebuggerCancel) and issue 12: a person who clicks Cancel means
// stop. Chrome then detaches every session of the extension with reason
// "canceled_by_user" (chrome.debugger.onDetach); the worker begins the
// Pause (persisted, reason debugger_canceled) and tells the host, which
// pauses as for the popup's button. Nothing attaches again until Resume
// (main.ts gives Debuggers the refusal).
import { EventPauseRequested, PauseByDebuggerCancel } from "../../protocol/generated";
import type { PauseRequestedParams } from "../../protocol/generated";
import type { HasAdoptions, HasChrome, HasLog, HasPause, Notifies } from "../capabilities";
import { errorText } from "../log";
import { beginPause } from "./pause";

/** chrome.debugger.onDetach's reason when the user clicked the banner's Cancel. */
export const CANCELED_BY_USER = "canceled_by_user";

export function watchDebuggerCancel(ctx: HasChrome & HasPause & HasAdoptions & Notifies & HasLog, ready: Promise<void>): void {
  // One Cancel detaches every tab: one Pause, one event.
  let pausing = false;
  ctx.chrome.debugger.onDetach((tabId, reason) => {
    if (reason !== CANCELED_BY_USER || pausing) return;
    pausing = true;
    void ready
      .then(async () => {
        if (ctx.pause.paused) return;
        ctx.log.info(`the user canceled debugging (tab ${tabId}): pausing AgentTab`);
        await beginPause(ctx, PauseByDebuggerCancel);
        const params: PauseRequestedParams = { reason: PauseByDebuggerCancel };
        ctx.notify(EventPauseRequested, params);
      })
      .catch((e: unknown) => ctx.log.warn(`pausing after the debugging banner's Cancel: ${errorText(e)}`))
      .finally(() => {
        pausing = false;
      });
  });
}
