// What serving the popup uses of the worker: the Context's parts, and the
// host connection's state and questions (the popup's task list, reviews,
// YOLO switch and End task are the host's to decide: protocol/commit.go,
// popup_tasks.go), the scheduler whose global barrier the YOLO switch
// passes, and the focus guard that lets the user's Open tab stand.
import type { HasAdoptions, HasChrome, HasClock, HasLog, HasNotices, HasOwnership, HasPause, Notifies } from "../capabilities";
import type { HostAnswer } from "../native/host-connection";
import type { HasReviews } from "../review/reviews";
import type { Scheduler } from "../native/scheduler";
import type { FocusGuard } from "../tabs/focus-guard";
import type { HostState } from "../../shared/status";

export type PopupCtx = HasChrome & HasOwnership & HasPause & HasAdoptions & HasNotices & HasReviews & Notifies & HasClock & HasLog;

export interface PopupHost {
  state(): HostState;
  /** HostConnection.ask: rejects when no host is welcomed, or after timeoutMs. */
  ask(method: string, params: unknown, timeoutMs: number): Promise<HostAnswer>;
}

export interface PopupDeps {
  host: PopupHost;
  scheduler: Pick<Scheduler, "global">;
  focus: Pick<FocusGuard, "allowUserOpen">;
}
